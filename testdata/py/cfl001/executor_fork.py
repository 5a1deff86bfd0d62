"""A ProcessPoolExecutor with a fork context after JAX picked its devices."""
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

import jax
import jax.numpy as jnp


def total(n):
    return float(jnp.arange(n).sum())


if __name__ == "__main__":
    print(jax.devices())  # want "CFL001 .*ProcessPoolExecutor workers"
    with ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("fork")) as ex:
        futures = [ex.submit(total, n) for n in (10, 20)]
        print([f.result() for f in futures])
