"""No start method is chosen: fork on Linux up to 3.13, forkserver from 3.14.
CUDA is initialized inside the guard, so 3.14 is fine and 3.10–3.13 break."""
import multiprocessing as mp

import torch


def worker(rank):
    torch.cuda.set_device(rank)
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.set_device(0)  # want "CFL001 .*the default \"fork\" start method.*Python 3\\.11–3\\.13 on Linux"
    procs = [mp.Process(target=worker, args=(i,)) for i in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
