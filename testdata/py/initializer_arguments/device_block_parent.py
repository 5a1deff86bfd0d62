"""A model built under `with torch.device("cuda")` allocates its parameters on
the GPU: the parent initializes CUDA, and the forked workers fail (measured,
probes-2026-12.md)."""
import multiprocessing as mp

import torch


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with torch.device("cuda"):
        model = torch.nn.Linear(2, 2)  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.ones\\(\\)`, line 10\\)"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
