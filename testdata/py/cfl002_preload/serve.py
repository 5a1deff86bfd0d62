"""Preloading a module in the forkserver to save start-up time per child."""
import multiprocessing as mp

import torch


def handle(i):
    return torch.full((2,), i, device="cuda").sum().item()


if __name__ == "__main__":
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["gpu_warmup"])
    with ctx.Pool(2) as pool:
        print(pool.map(handle, range(4)))
