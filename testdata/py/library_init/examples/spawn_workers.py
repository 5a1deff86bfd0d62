"""Spawn children re-import this script and so the library, which runs cuInit
again in each: a driver initialization inside a library the children need,
without a context. Not reported (CFL004 is about what the script can move)."""
import multiprocessing as mp

import gpulib


def count(line):
    return len(line.split())


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(count, ["a b", "c"]), gpulib.HAS_CUDA)
