"""A model class of the script's own, built under `with torch.device("cuda")`:
its layers allocate on the GPU, the parent initializes CUDA, and the forked
workers fail."""
import multiprocessing as mp

import torch


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 2)  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.ones\\(\\)`, line 16\\)"


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with torch.device("cuda"):
        head = Head()
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
