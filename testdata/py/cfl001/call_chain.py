"""The initialization and the fork each hide in a helper function."""
import multiprocessing as mp

import numpy as np
from numba import cuda


def setup_gpu():
    cuda.select_device(0)  # want "CFL001 .*`numba\\.cuda\\.select_device\\(\\)`"


def kernel_job(n):
    return cuda.to_device(np.arange(n)).copy_to_host().sum()


def fan_out():
    with mp.get_context("fork").Pool(2) as pool:
        return pool.map(kernel_job, [4, 8])


def main():
    setup_gpu()
    print(fan_out())


if __name__ == "__main__":
    main()
