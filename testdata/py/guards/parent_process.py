"""`parent_process() is None` is not a guard: a spawn child learns its parent
only after it has imported the main module, so the test is true there too."""
import multiprocessing as mp

import torch


def square(x):
    return x * x


if mp.parent_process() is None:
    weights = torch.randn(4, device="cuda")  # want "CFL004 .*every child started at `mp\\.get_context\\(\"spawn\"\\)\\.Pool\\(2\\)`"

if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(square, range(4)))
