"""The finding is anchored at the first initialization that always runs before
the fork, not at one only a branch runs."""
import argparse
import multiprocessing as mp

import torch


def count(line):
    return len(line.split())


if __name__ == "__main__":
    args = argparse.ArgumentParser().parse_args()
    if getattr(args, "verbose", False):
        print(torch.cuda.get_device_name(0))
    model = torch.nn.Linear(4, 4).cuda()  # want "CFL003 `\\.cuda\\(\\)` initializes CUDA before the process forks at `mp\\.get_context\\(\"fork\"\\)\\.Pool\\(2\\)`"
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(count, ["a b", "c"]))
