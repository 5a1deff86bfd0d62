"""A loss kept in float32 with autocast switched off: enabled=False checks
nothing, so the parent never initializes CUDA and the forked workers
initialize their own (measured, probes-2026-12.md)."""
import multiprocessing as mp

import torch


@torch.amp.autocast("cuda", enabled=False)
def fp32_loss(x, y):
    return ((x.float() - y.float()) ** 2).mean()


def work(i):
    x = torch.ones(4, device="cuda") * i
    return fp32_loss(x, x).item()


if __name__ == "__main__":
    with torch.autocast(device_type="cuda", enabled=False):
        print(fp32_loss(torch.ones(2), torch.zeros(2)))
    scaler = torch.amp.GradScaler("cuda", enabled=False)
    with mp.Pool(2) as pool:
        print(pool.map(work, range(4)))
