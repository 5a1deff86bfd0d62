"""`if __name__ == "__main__" and ...:` is a main guard: its body runs only as
the main module, so spawn children re-importing the file never run it."""
import multiprocessing as mp
import os

import torch


def square(x):
    return x * x


if __name__ == "__main__" and not os.environ.get("DRY_RUN"):
    weights = torch.randn(4, device="cuda")
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(square, range(4)), weights.sum().item())
