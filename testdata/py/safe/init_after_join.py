"""The children finish before the parent touches the GPU."""
import multiprocessing as mp

import torch


def prep(x):
    return x * 2


if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        data = pool.map(prep, range(8))
    t = torch.tensor(data).cuda()
    print(t.sum().item())
