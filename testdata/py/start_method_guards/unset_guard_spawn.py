"""Spawn is chosen when nothing chose a method yet: in this script nothing
did, so the pool spawns its workers and the initialization before it is
harmless."""
import multiprocessing as mp

import torch


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    if mp.get_start_method(allow_none=True) is None:
        mp.set_start_method("spawn")
    torch.cuda.init()
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
