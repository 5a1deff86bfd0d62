"""A normal forkserver program: CUDA initialized inside the main guard only. The
server imports the module but never runs the guard: nothing to report."""
import multiprocessing as mp

import torch


def child(x):
    return torch.ones(2, device="cuda").sum().item() + x


if __name__ == "__main__":
    torch.zeros(1, device="cuda")
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(child, range(4)))
