"""Quantization limits read from dtype information at import time, in a
program whose loader uses spawn workers. jnp.finfo and jnp.iinfo are
ml_dtypes' info objects and jnp.result_type returns a NumPy dtype: their
attributes and the casts of those are NumPy scalars, so re-importing this
module in every child builds no JAX array and initializes no backend."""
import multiprocessing as mp

import jax.numpy as jnp

E4M3_MAX = jnp.finfo(jnp.float8_e4m3fn).max.astype(jnp.float32)
INT8_MAX = jnp.iinfo(jnp.int8).max.item()
ACCUM = jnp.result_type(jnp.bfloat16, jnp.float32).type(0)
WIDE = jnp.promote_types(jnp.int8, jnp.float16).itemsize
CASTS = jnp.can_cast(jnp.float32, jnp.bfloat16).bit_length()


def shard_limits(path):
    with open(path) as f:
        return [min(float(line), float(E4M3_MAX)) for line in f]


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(shard_limits, ["a.txt", "b.txt"]))
