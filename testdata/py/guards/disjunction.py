"""`if __name__ == "__main__" or ...:` is not: its body may run when spawn
children re-import the file."""
import multiprocessing as mp
import os

import torch


def square(x):
    return x * x


if __name__ == "__main__" or os.environ.get("WARM_GPU"):
    weights = torch.randn(4, device="cuda")  # want "CFL004 .*every child started at `mp\\.get_context\\(\"spawn\"\\)\\.Pool\\(2\\)`"

if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(square, range(4)))
