"""The look-alike that names "fork": an error."""
import multiprocessing as mp

import torch


def score(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    mp.set_start_method("fork")
    torch.cuda.init()  # want "CFL001 .*Pool workers, the \"fork\" start method"
    with mp.Pool(2) as pool:
        print(pool.map(score, range(2)))
