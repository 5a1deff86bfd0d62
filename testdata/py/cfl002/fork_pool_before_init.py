"""A warm-up pool at the top level that names fork, before the CUDA lookup
table is built, and the real pool under the main guard, with the default
start method. The forkserver of 3.14.1+ imports this script: its fork pool
starts there without complaint (only spawn and forkserver starts are refused
while a process bootstraps), and it goes on to build the table, which every
child it forks inherits."""
import multiprocessing as mp

import cupy as cp


def square(i):
    return i * i


with mp.get_context("fork").Pool(2) as warmup:
    warmup.map(square, range(8))

table = cp.arange(1024)  # want "CFL001 .*Python 3\\.11–3\\.13 on Linux" "CFL002 .*Python 3\\.14\\.1\\+, 3\\.15 on Linux" "CFL004 .*Python 3\\.14\\.0 on Linux"


def lookup(i):
    return int(cp.asarray(table)[i])


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(lookup, range(4)))
