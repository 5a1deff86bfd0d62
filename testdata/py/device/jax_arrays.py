"""jax arrays live on the default backend, the GPU where there is one; a
NumPy copy lives on the host. (A forked child that touches JAX hangs.)"""
import multiprocessing as mp

import jax.numpy as jnp
import numpy as np


def total(a):
    return float(np.sum(a))


def on_device(x):
    with mp.Pool(2) as pool:
        return pool.map(total, [x])


def on_host(x):
    with mp.Pool(2) as pool:
        return pool.map(total, [np.asarray(x)])


if __name__ == "__main__":
    x = jnp.ones((4, 4))  # want "CFL001 .*line 14: Pool workers.*CUDA objects passed to the child" "CFL003 .*line 19: Pool workers.*the children never touch CUDA"
    print(on_device(x), on_host(x))
