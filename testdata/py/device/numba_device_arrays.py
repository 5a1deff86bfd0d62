"""numba device arrays live on the GPU; copy_to_host() brings a NumPy array
back. A forked child handed the device array fails when it reads it; a pool
handed the host copy does not. (A device array cannot be pickled, so it is
handed to a forked Process, which inherits it.)"""
import multiprocessing as mp

import numpy as np
from numba import cuda


def device_total(d_a):
    print(float(d_a.copy_to_host().sum()))


def host_total(a):
    return float(a.sum())


def on_device(d_x):
    p = mp.Process(target=device_total, args=(d_x,))
    p.start()
    p.join()


def on_host(d_x):
    host = d_x.copy_to_host()
    with mp.Pool(2) as pool:
        return pool.map(host_total, [host, host * 2])


if __name__ == "__main__":
    d_x = cuda.to_device(np.arange(16, dtype=np.float32))  # want "CFL001 .*line 21: a Process.*CUDA objects passed to the child" "CFL003 .*line 27: Pool workers.*the children never touch CUDA"
    on_host(d_x)
    on_device(d_x)
