"""The sweep's console entry point (setup.py names tune_sweep:launch): it
chooses spawn, then runs the sweep."""
import torch
import torch.multiprocessing as mp
from torch.utils.data import TensorDataset

import sweeplib


def launch():
    mp.set_start_method("spawn")
    data = TensorDataset(torch.randn(256, 4), torch.randn(256, 1))
    sweeplib.sweep(torch.nn.Linear(4, 1), data)
