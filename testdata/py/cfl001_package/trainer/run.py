import multiprocessing as mp

import torch

from . import data
from .gpu import place


def main():
    model = place(torch.nn.Linear(4, 1))
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        print(pool.map(data.make_batch, range(4)), model)
