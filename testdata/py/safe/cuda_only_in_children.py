"""Fork matrix: "fork: parent imports only, child uses" — ok for every library."""
import multiprocessing as mp

import cupy
import torch


def child():
    torch.ones(1, device="cuda")
    cupy.arange(3)


if __name__ == "__main__":
    ctx = mp.get_context("fork")
    p = ctx.Process(target=child)
    p.start()
    p.join()
