"""A CPU block inside a program whose default device is CUDA: the block's
model is on the CPU, but the default comes back after it, and the buffer made
then is on the GPU."""
import multiprocessing as mp

import torch


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 2)


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    torch.set_default_device("cuda")
    with torch.device("cpu"):
        head = Head()
    buf = torch.zeros(4)  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.ones\\(\\)`, line 16\\)"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
