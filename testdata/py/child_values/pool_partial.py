"""functools.partial binds the device: the pool's workers run
work("cuda", item) and fail; the CPU-bound partial next to it is benign."""
import multiprocessing as mp
from functools import partial

import torch


def work(device, item):
    return torch.full((4,), item, device=device).sum().item()


def on(device, items):
    with mp.Pool(2) as pool:
        return pool.map(partial(work, device), items)


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.full\\(\\)`, line 10\\)" "CFL003 .*Pool workers.*the children never touch CUDA"
    print(on("cuda", range(4)))
    print(on("cpu", range(4)))
