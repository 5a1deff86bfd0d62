"""Checksum the shards on a fork pool, retrying after a backoff.

load_shards and load_shards_after_backoff call each other. The shards are
checked once before the GPU is picked, and loaded for real after it,
through the other function of the pair: that pool forks a process that has
run cuInit.
"""
import multiprocessing as mp
import time
import zlib

import torch

SHARDS = ["shards/000.bin", "shards/001.bin"]


def checksum(path):
    with open(path, "rb") as f:
        return zlib.crc32(f.read())


def load_shards():
    try:
        with mp.get_context("fork").Pool(2) as pool:
            return pool.map(checksum, SHARDS)
    except OSError:
        return load_shards_after_backoff()


def load_shards_after_backoff():
    time.sleep(5)
    return load_shards()


if __name__ == "__main__":
    load_shards()  # are the shards readable at all?
    torch.cuda.is_available()  # want "CFL003 .*Pool workers.*never touch CUDA"
    load_shards_after_backoff()  # the storage is flaky: wait, then load for real
