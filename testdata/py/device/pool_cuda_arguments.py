"""The look-alike that fails: the workers are handed the CUDA tensor itself.
Unpickling it in a child forked from an initialized parent touches CUDA."""
import multiprocessing as mp

import torch


def norm(x):
    return x.float().norm().item()


if __name__ == "__main__":
    pos = torch.randn(16, 3, device="cuda")  # want "CFL001 .*Pool workers.*CUDA objects passed to the child"
    chunks = list(pos.chunk(4))
    with mp.Pool(2) as pool:
        print(pool.map(norm, chunks))
