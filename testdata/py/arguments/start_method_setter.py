"""A helper sets the start method it is given (mmengine's
set_multi_processing shape); the caller asks for "spawn", so the pool does
not fork, although the helper's default is "fork"."""
import multiprocessing as mp

import torch


def set_multi_processing(mp_start_method="fork"):
    mp.set_start_method(mp_start_method, force=True)


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    set_multi_processing(mp_start_method="spawn")
    torch.cuda.init()
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
