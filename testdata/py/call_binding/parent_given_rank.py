"""The look-alike of parent_missing_rank.py: the legacy branch passes the
rank and the world size, set_device runs, and the pool forks after it."""
import sys

import torch
import torch.multiprocessing as mp


def setup_gpu(rank, world_size):
    torch.cuda.set_device(rank % world_size)  # want "CFL003 .*Pool.*the children never touch CUDA"


def count_lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def main():
    if "--legacy" in sys.argv:
        setup_gpu(0, 1)
    with mp.Pool(4) as pool:
        print(pool.map(count_lines, ["a.txt", "b.txt"]))


if __name__ == "__main__":
    main()
