"""A ProcessPoolExecutor on a "fork" context after CUDA was initialized."""
# fixcorpus: CFL001 unsafe
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

import torch


def norm(values):
    t = torch.tensor(values, device="cuda")
    return round((t * t).sum().item() ** 0.5, 4)


if __name__ == "__main__":
    torch.cuda.init()
    with ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("fork")) as ex:
        print(list(ex.map(norm, [[3.0, 4.0], [6.0, 8.0]])))
