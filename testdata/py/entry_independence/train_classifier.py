"""Trains the HIGGS classifier; the shards are loaded by a pool of workers."""
import multiprocessing as mp
import sys

import pyarrow.parquet as pq
import torch

from features import gpu_batch


def load_shard(path):
    return gpu_batch(pq.read_table(path))


if __name__ == "__main__":
    torch.cuda.set_device(0)  # want "CFL001 .*forks at `mp\\.get_context\\(\"fork\"\\)\\.Pool\\(4\\)`.*the child uses CUDA \\(`\\.to\\(\\)`, features\\.py:7\\)"
    with mp.get_context("fork").Pool(4) as pool:
        shards = pool.map(load_shard, sys.argv[1:])
