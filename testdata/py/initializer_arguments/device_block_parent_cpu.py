"""The look-alike: the block names the CPU, so nothing touches CUDA before the
workers start."""
import multiprocessing as mp

import torch


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with torch.device("cpu"):
        model = torch.nn.Linear(2, 2)
        buf = torch.zeros(4)
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
