"""Top-level init and the default start method: a fork after init up to 3.13,
a forkserver that imports the CUDA-initializing main module on 3.14."""
import multiprocessing as mp

import cupy as cp

table = cp.arange(1024)  # want "CFL001 .*Python 3\\.10–3\\.13 on Linux" "CFL002 .*Python 3\\.14 on Linux"


def lookup(i):
    return int(cp.asarray(table)[i])


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(lookup, range(4)))
