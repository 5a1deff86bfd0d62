"""The look-alike: the workers' block names the CPU, so they never touch CUDA;
the fork after the parent's initialization is benign."""
import multiprocessing as mp

import torch


def work(i):
    with torch.device("cpu"):
        return torch.ones(2).sum().item() + i


if __name__ == "__main__":
    model = torch.nn.Linear(2, 2).cuda()  # want "CFL003"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
