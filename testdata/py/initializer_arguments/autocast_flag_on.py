"""The look-alike that fails: the constant turns mixed precision on."""
import multiprocessing as mp

import torch

USE_AMP = True


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with torch.autocast("cuda", torch.float16, USE_AMP):  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.ones\\(\\)`, line 10\\)"
        pass
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
