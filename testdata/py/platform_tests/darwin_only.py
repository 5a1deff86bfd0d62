"""macOS defaults to spawn since Python 3.8, and this script asks for fork
there. On Linux that arm never runs: the start method is the version's
default, fork up to 3.13 (a fork after CUDA was initialized) and the
forkserver from 3.14, which re-imports this module."""
import multiprocessing as mp
import sys

import torch

if sys.platform == "darwin":
    mp.set_start_method("fork")

torch.cuda.init()  # want "CFL001 .*the default \"fork\" start method.*Python 3\\.11–3\\.13 on Linux" "CFL002 .*the default \"forkserver\" start method" "CFL004 .*the default \"forkserver\" start method"


def square(x):
    return (torch.ones(1, device="cuda") * x).item()


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(square, range(4)))
