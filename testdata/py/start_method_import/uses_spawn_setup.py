"""Importing the setup module chose spawn: the pool's children start fresh."""
import multiprocessing as mp

import torch

import mp_spawn_setup  # noqa: F401


def embed(values):
    return torch.tensor(values, device="cuda").sum().item()


if __name__ == "__main__":
    torch.cuda.init()
    with mp.Pool(2) as pool:
        print(pool.map(embed, [[1.0], [2.0]]))
