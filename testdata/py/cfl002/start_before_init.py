"""A warm-up pool at the top level, before the CUDA lookup table is built,
and the real pool under the main guard, with the default start method. Up to
3.13 the guarded pool forks after CUDA was initialized (CFL001). From 3.14
the forkserver or each child imports this script and makes the warm-up pool
first: multiprocessing refuses to start a process there, while it
bootstraps, so none of them reaches the table (no CFL002, no CFL004); the
warm-up pool is the hazard (CFL005)."""
import multiprocessing as mp

import cupy as cp


def square(i):
    return i * i


with mp.Pool(2) as warmup:  # want "CFL005 .*stops with RuntimeError while bootstrapping on Python 3\\.14–3\\.15 on Linux"
    warmup.map(square, range(8))

table = cp.arange(1024)  # want "CFL001 .*Python 3\\.11–3\\.13 on Linux"


def lookup(i):
    return int(cp.asarray(table)[i])


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(lookup, range(4)))
