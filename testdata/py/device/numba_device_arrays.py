"""numba device arrays live on the GPU; copy_to_host() brings a NumPy array
back. A pool handed the device array fails, one handed the copy does not."""
import multiprocessing as mp

import numpy as np
from numba import cuda


def norm(a):
    return float(np.sqrt((a * a).sum()))


def on_device(d_x):
    with mp.Pool(2) as pool:
        return pool.map(norm, [d_x])


def on_host(d_x):
    host = d_x.copy_to_host()
    with mp.Pool(2) as pool:
        return pool.map(norm, [host, host * 2])


if __name__ == "__main__":
    d_x = cuda.to_device(np.arange(16, dtype=np.float32))  # want "CFL001 .*line 14: Pool workers.*CUDA objects passed to the child" "CFL003 .*line 20: Pool workers.*the children never touch CUDA"
    print(on_device(d_x), on_host(d_x))
