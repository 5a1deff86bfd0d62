"""Fork only when the command line asks for it: without --fork the pool
takes the version's default, the forkserver from 3.14, whose workers
re-import this module and initialize CUDA again. The "fork" literal chose
the method of the other path only."""
import multiprocessing as mp
import sys

import torch

if "--fork" in sys.argv:
    mp.set_start_method("fork", force=True)

HAVE_GPU = torch.cuda.is_available()  # want "CFL003 .*\"fork\" start method" "CFL006 .*the default \"forkserver\" start method" "CFL004 .*the default \"forkserver\" start method"


def square(x):
    return x * x


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(square, range(4)), HAVE_GPU)
