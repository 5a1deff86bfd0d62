"""An early exit guards everything after it: this script's top level runs only
as the main module. (Spawn children that re-import it exit at once; the
script only ever forks.)"""
import multiprocessing as mp
import sys

import torch

if __name__ != "__main__":
    sys.exit()

weights = torch.randn(4, device="cuda")


def square(x):
    return x * x


with mp.get_context("spawn").Pool(2) as pool:
    print(pool.map(square, range(4)), weights.sum().item())
