"""A "fork" pool whose worker reads a tensor the parent made under the main
guard. Under "spawn" the child imports this module without running the
guard, so `weights` would not exist there: the "spawn" fix is display-only.
"""
# fixcorpus: CFL001 display-only
import multiprocessing as mp

import torch


def score(i):
    return (weights * i).sum().item()


if __name__ == "__main__":
    torch.cuda.init()
    weights = torch.ones(3, device="cuda")
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(score, range(3)))
