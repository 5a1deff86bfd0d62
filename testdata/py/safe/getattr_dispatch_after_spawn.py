"""A command picked by name: `python run.py train`. The script sets the spawn
start method before it dispatches, and getattr with a constant name is a call
the model follows: train() runs where it is dispatched, under spawn, and is not
also run on its own as if nothing called it."""
import sys

import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, TensorDataset


def train():
    loader = DataLoader(TensorDataset(torch.randn(256, 4)), batch_size=32, num_workers=4)
    model = torch.nn.Linear(4, 1).cuda()
    for (x,) in loader:
        model(x.cuda()).sum().backward()


if __name__ == "__main__":
    mp.set_start_method("spawn")
    getattr(sys.modules[__name__], "train")()
