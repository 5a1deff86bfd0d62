"""The look-alike that fails: the helper called with its default, "fork"."""
import multiprocessing as mp

import torch


def set_multi_processing(mp_start_method="fork"):
    mp.set_start_method(mp_start_method, force=True)


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    set_multi_processing()
    torch.cuda.init()  # want "CFL001 .*Pool workers, the \"fork\" start method.*uses CUDA \\(`torch\\.ones\\(\\)`, line 12\\).*Python 3\\.11–3\\.15"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
