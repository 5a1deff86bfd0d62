"""A negated guard that does not end the import guards only its own arm: the
code after it runs in every spawn child that re-imports the file."""
import multiprocessing as mp

import torch

if __name__ != "__main__":
    print("imported by a child")

weights = torch.randn(4, device="cuda")  # want "CFL004 .*every child started at `mp\\.get_context\\(\"spawn\"\\)\\.Pool\\(2\\)`"


def square(x):
    return x * x


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(square, range(4)), weights.sum().item())
