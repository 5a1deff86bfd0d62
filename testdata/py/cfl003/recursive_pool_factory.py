"""Checksum the shards on a fork pool as wide as the host allows.

make_pool and make_capped_pool return each other's pool. The smoke test
asks make_capped_pool first; the pool the job maps over comes from
make_pool, and may be either of the two. Both fork after cuInit, and both
run checksum, which never touches CUDA.
"""
import multiprocessing as mp
import os
import zlib

import torch

MAX_WORKERS = 64
SHARDS = ["shards/000.bin", "shards/001.bin"]


def checksum(path):
    with open(path, "rb") as f:
        return zlib.crc32(f.read())


def make_pool():
    if os.cpu_count() > MAX_WORKERS:
        return make_capped_pool()
    return mp.get_context("fork").Pool(os.cpu_count())


def make_capped_pool():
    if MAX_WORKERS >= os.cpu_count():
        return make_pool()
    return mp.get_context("fork").Pool(MAX_WORKERS)


if __name__ == "__main__":
    probe = make_capped_pool()  # can this host fork at all?
    probe.terminate()
    torch.cuda.init()  # want "CFL003 .*Pool\\(MAX_WORKERS\\).*and 1 other place; the children never touch CUDA"
    with make_pool() as pool:
        print(pool.map(checksum, SHARDS))
