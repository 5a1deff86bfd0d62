"""With only a branch's initialization before the fork, that one is it."""
import multiprocessing as mp
import sys

import torch


def count(line):
    return len(line.split())


if __name__ == "__main__":
    if "--show-gpu" in sys.argv:
        print(torch.cuda.get_device_name(0))  # want "CFL003 `torch\\.cuda\\.get_device_name\\(\\)` initializes CUDA before"
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(count, ["a b", "c"]))
