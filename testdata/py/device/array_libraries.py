"""CuPy arrays live on the GPU, NumPy arrays (and cupy's .get() results) on
the host: a pool handed the first fails, one handed the second does not. Both
pools fork after the first cupy call initialized CUDA."""
import multiprocessing as mp

import cupy
import numpy as np


def total(a):
    return float(a.sum())


def gpu_total():
    x = cupy.arange(8)  # want "CFL001 .*line 16: Pool workers.*CUDA objects passed to the child" "CFL003 .*line 22: Pool workers.*the children never touch CUDA"
    with mp.Pool(2) as pool:
        return pool.map(total, [x, x])


def host_total():
    y = cupy.arange(8).get()
    with mp.Pool(2) as pool:
        return pool.map(total, [y, np.ones(3)])


if __name__ == "__main__":
    print(gpu_total(), host_total())
