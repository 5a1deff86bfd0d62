"""`__lazy_modules__` makes the imports of the modules it names lazy on
Python 3.15, and is an ordinary variable before: there `import cudf` at the
top level initializes CUDA at the import line. With the default start method
that is a fork after initialization up to 3.13 (CFL001) and a forkserver that
imports this module on 3.14.1+ (CFL002); children that re-import it on 3.14.0
run cudf's driver-only initialization, which they need anyway (not CFL004);
on 3.15 the import waits for the children's first use of cudf, and nothing is
reported for it."""
import multiprocessing as mp

__lazy_modules__ = ["cudf"]

import cudf  # want "CFL001 import cudf .*Python 3\\.11–3\\.13 on Linux" "CFL002 import cudf .*Python 3\\.14\\.1\\+ on Linux"


def work(i):
    return len(cudf.DataFrame({"a": [i]}))


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
