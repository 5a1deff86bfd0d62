"""Workers that allocate under `with torch.device("cuda")` use CUDA: after the
parent moved a model with .cuda(), they fail (measured, probes-2026-12.md)."""
import multiprocessing as mp

import torch


def work(i):
    with torch.device("cuda"):
        return torch.ones(2).sum().item() + i


if __name__ == "__main__":
    model = torch.nn.Linear(2, 2).cuda()  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.ones\\(\\)`, line 10\\)"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
