"""Preprocess shards in spawned workers, after a GPU warm-up at import time.

CFL004: the warm-up at the top level runs again in every spawned child when it re-imports
this module: each worker initializes CUDA (and allocates a context on the GPU) only to
tokenize text.
"""
import multiprocessing as mp

import torch

WARMUP = torch.zeros(1, device="cuda")


def tokenize(line):
    return line.lower().split()


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    with ctx.Pool(4) as pool:
        print(pool.map(tokenize, ["A b", "C d"]))
