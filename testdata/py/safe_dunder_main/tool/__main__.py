"""`python -m tool`: a package's __main__.py runs unconditionally, and spawn
children never re-import it (multiprocessing special-cases modules named
__main__), so neither the top-level start nor the top-level init reruns.
Seen in the CPython tree: lib2to3/__main__.py starting processes."""
import multiprocessing as mp

import torch

torch.cuda.init()


def work(x):
    return torch.ones(1, device="cuda").item() + x


with mp.get_context("spawn").Pool(2) as pool:
    print(pool.map(work, range(3)))
