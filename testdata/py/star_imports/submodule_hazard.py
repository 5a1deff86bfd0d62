"""`from gpu_pkg import *` imports gpu_pkg.warmup, which gpu_pkg's __all__
names, and which initializes CUDA when imported; the pool forks after."""
import multiprocessing as mp

from gpu_pkg import *


def double(x):
    return 2 * x


if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(double, [1, 2]))
