"""Preprocessing on a fork pool after the GPU was picked: CPU-only tasks."""
import multiprocessing as mp
import zlib

import torch


def checksum(blob):
    return zlib.crc32(blob)


if __name__ == "__main__":
    torch.cuda.is_available()  # want "CFL003 .*Pool workers.*never touch CUDA"
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(checksum, [b"a", b"b"]))
