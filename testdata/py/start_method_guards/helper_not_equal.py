"""A helper that switches to its method unless it is already chosen; its
default is "spawn"."""
import multiprocessing as mp

import torch


def ensure_start_method(method="spawn"):
    if mp.get_start_method(allow_none=True) != method:
        mp.set_start_method(method, force=True)


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    ensure_start_method()
    torch.cuda.init()
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
