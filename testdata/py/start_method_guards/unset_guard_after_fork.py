"""The look-alike that fails: "fork" was chosen first, so the guarded setter
does nothing and the pool forks after the initialization."""
import multiprocessing as mp

import torch


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    mp.set_start_method("fork")
    if mp.get_start_method(allow_none=True) is None:
        mp.set_start_method("spawn")
    torch.cuda.init()  # want "CFL001 .*Pool workers, the \"fork\" start method.*uses CUDA \\(`torch\\.ones\\(\\)`, line 9\\)"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
