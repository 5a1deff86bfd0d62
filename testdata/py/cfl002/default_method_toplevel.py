"""Top-level init and the default start method: a fork after init up to 3.13,
a forkserver that imports the CUDA-initializing main module on 3.14.1+ and
3.15; on 3.14.0 the forkserver does not import it (gh-126631 is fixed in
3.14.1) and each child re-imports it instead (CFL004)."""
import multiprocessing as mp

import cupy as cp

table = cp.arange(1024)  # want "CFL001 .*Python 3\\.11–3\\.13 on Linux" "CFL002 .*Python 3\\.14\\.1\\+, 3\\.15 on Linux" "CFL004 .*re-imports it.*Python 3\\.14\\.0 on Linux"


def lookup(i):
    return int(cp.asarray(table)[i])


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(lookup, range(4)))
