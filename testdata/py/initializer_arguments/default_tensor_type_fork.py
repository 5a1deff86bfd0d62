"""set_default_tensor_type("torch.cuda.FloatTensor") initializes nothing by
itself: the parent never initializes CUDA, and each forked worker that
allocates initializes its own (measured, probes-2026-12.md)."""
import multiprocessing as mp

import torch


def work(i):
    return torch.zeros(2).sum().item() + i


if __name__ == "__main__":
    torch.set_default_tensor_type("torch.cuda.FloatTensor")
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
