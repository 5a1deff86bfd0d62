"""The look-alike that fails: the same helper asked for "fork"."""
import multiprocessing as mp

import torch


def ensure_start_method(method="spawn"):
    if mp.get_start_method(allow_none=True) != method:
        mp.set_start_method(method, force=True)


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    ensure_start_method("fork")
    torch.cuda.init()  # want "CFL001 .*Pool workers, the \"fork\" start method.*uses CUDA \\(`torch\\.ones\\(\\)`, line 13\\)"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
