# checktest: platform=linux,windows
"""Checked for Linux and Windows: fork where the platform has it. Each
platform runs its own arm of the test: on Linux the pool forks on every
version (after CUDA was initialized, in children that never touch it); on
Windows its spawned workers re-import this module, and the initialization
at import time runs again in each."""
import multiprocessing as mp
import sys

import torch

if sys.platform != "win32":
    mp.set_start_method("fork", force=True)

HAVE_GPU = torch.cuda.is_available()  # want "CFL003 .*the \"fork\" start method.*Python 3\\.11–3\\.15 on Linux" "CFL004 .*the default \"spawn\" start method.*re-imports it, initializing CUDA again on Python 3\\.11–3\\.15 on Windows\\."


def square(x):
    return x * x


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(square, range(4)), HAVE_GPU)
