"""`"__main__" == __name__` is the main guard written the other way round."""
import multiprocessing as mp

import torch


def square(x):
    return x * x


if "__main__" == __name__:
    weights = torch.randn(4, device="cuda")
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(square, range(4)), weights.sum().item())
