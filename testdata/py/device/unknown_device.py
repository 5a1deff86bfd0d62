"""The workers allocate on a device read from the environment: the analysis
cannot tell whether it is the GPU, and says so: a warning, not an error,
since the child fails only if it is."""
import multiprocessing as mp
import os

import torch

DEVICE = os.environ.get("WORKER_DEVICE")


def work(i):
    return torch.full((2,), i, device=DEVICE).sum().item()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 .*Pool workers.*could not tell whether `DEVICE` names a GPU"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(4)))
