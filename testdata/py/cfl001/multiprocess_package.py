"""The dill-based `multiprocess` package has the same API and its own context."""
import multiprocess as mpx

import cupy


def norm(v):
    return float(cupy.linalg.norm(cupy.asarray(v)))


if __name__ == "__main__":
    cupy.cuda.Device(0).use()  # want "CFL001 .*Pool workers, the \"fork\" start method"
    with mpx.get_context("fork").Pool(2) as pool:
        print(pool.map(norm, [[1, 2], [3, 4]]))
