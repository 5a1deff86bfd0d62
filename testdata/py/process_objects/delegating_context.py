"""A context that only delegates (__getattr__) to the spawn context it
holds: its processes are spawned."""
import multiprocessing

import torch


class Delegating:
    def __init__(self, method):
        self._ctx = multiprocessing.get_context(method)

    def __getattr__(self, name):
        return getattr(self._ctx, name)


def fill(i):
    return torch.full((2,), i, device="cuda").sum().item()


if __name__ == "__main__":
    torch.cuda.init()
    with multiprocessing.Pool(2, context=Delegating("spawn")) as pool:
        print(pool.map(fill, range(4)))
