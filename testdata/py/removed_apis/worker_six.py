"""A torch 1.x script whose forked worker uses CUDA that its parent
initialized: broken wherever the script runs, Python 3.11 at the newest."""
import multiprocessing as mp

import torch
from torch._six import inf


def worker(rank):
    x = torch.full((2,), inf, device="cuda")
    print(rank, x.isinf().all().item())


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*Python 3\\.11 on Linux"
    procs = [mp.Process(target=worker, args=(r,)) for r in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
