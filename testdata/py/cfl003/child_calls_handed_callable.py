"""A launcher object wraps the user's training function; the child calls it
(the shape of accelerate's notebook_launcher). is_available() in the branch
test initializes CUDA first on machines with two or more GPUs. What the
child runs is the user's function, which the launcher cannot see: a
warning, not an error."""
import torch
from torch.multiprocessing import start_processes


class Launch:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, rank, *args):
        self.fn(rank, *args)


def launch(train_fn, n):
    if torch.cuda.is_available() and torch.cuda.device_count() < 2:  # want "CFL003 .*the child calls `self\\.fn`, whose code could not be seen"
        train_fn(0)
    else:
        start_processes(Launch(train_fn), nprocs=n, start_method="fork")
