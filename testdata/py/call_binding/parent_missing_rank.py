"""The GPU setup helper takes the rank and the world size; the legacy
branch calls it with the rank alone, which raises TypeError before
set_device runs. The pool forked afterwards inherits no CUDA context."""
import sys

import torch
import torch.multiprocessing as mp


def setup_gpu(rank, world_size):
    torch.cuda.set_device(rank % world_size)


def count_lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def main():
    if "--legacy" in sys.argv:
        setup_gpu(0)
    with mp.Pool(4) as pool:
        print(pool.map(count_lines, ["a.txt", "b.txt"]))


if __name__ == "__main__":
    main()
