"""`lazy` is a soft keyword: everywhere but in front of an import it is an
ordinary name, and the rest of the file is analysed as before."""
import multiprocessing as mp

import torch

lazy = True
lazy_loader = {"lazy": lazy}


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    if lazy:
        torch.cuda.init()  # want "CFL001 .*Python 3\\.11–3\\.15 on Linux"
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(work, range(2)))
