"""Data helpers of the vision experiments.

prefetch_to_gpu is called from notebooks, not from this project's code: it
is checked as an entry point of its own. The speech project has a helper
of the same name in a module of the same name; that one is called. Each
project is its own program, so the speech project's call does not hide
this one's hazard.
"""
import multiprocessing as mp

import torch


def _decode(path):
    return torch.load(path, map_location="cpu")


def prefetch_to_gpu(paths):
    torch.cuda.init()  # want `CFL003 .*forks at .mp\.Pool\(4\).`
    with mp.Pool(4) as pool:
        shards = pool.map(_decode, paths)
    return [s.cuda() for s in shards]
