"""`current_process().name == "MainProcess"` keeps code out of spawn children:
they are named SpawnPoolWorker-N before they import the main module."""
import multiprocessing as mp

import torch


def square(x):
    return x * x


if mp.current_process().name == "MainProcess":
    weights = torch.randn(4, device="cuda")

if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(square, range(4)), weights.sum().item())
