"""Known non-initializers before a fork: torch.device, device_count, seeds,
NVML queries, decorators (oracle.json: all 'init: no')."""
import multiprocessing as mp

import pynvml
import torch
from numba import cuda


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    a[i] += 1


def child():
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    device = torch.device("cuda")
    n = torch.cuda.device_count()
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    pynvml.nvmlInit()
    print(device, n, pynvml.nvmlDeviceGetCount())
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
