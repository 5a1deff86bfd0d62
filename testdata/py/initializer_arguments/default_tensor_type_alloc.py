"""The look-alike that fails: the parent allocates after making CUDA tensors
the default, and the workers then allocate on the GPU too."""
import multiprocessing as mp

import torch


def work(i):
    return torch.zeros(2).sum().item() + i


if __name__ == "__main__":
    torch.set_default_tensor_type("torch.cuda.FloatTensor")
    warm = torch.zeros(1)  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.zeros\\(\\)`, line 9\\)"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
