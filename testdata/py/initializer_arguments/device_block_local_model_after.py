"""The look-alike: the model is built after the block ended, on the CPU, and
the block itself allocated nothing."""
import multiprocessing as mp

import torch


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 2)


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with torch.device("cuda"):
        print("building on the CPU")
    head = Head()
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
