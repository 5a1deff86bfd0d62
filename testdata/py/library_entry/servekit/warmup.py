"""Warms the GPUs up; run as `python -m servekit.warmup`, so its main guard runs
with no start method chosen: the default "fork"."""
import torch
import torch.multiprocessing as mp

from .devices import device_for


def _touch(device_id):
    torch.ones(1, device=f"cuda:{device_id}").sum().item()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*a Process, the default \"fork\" start method"
    p = mp.Process(target=_touch, args=(device_for(0),))
    p.start()
    p.join()
