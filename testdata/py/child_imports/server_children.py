"""Forkserver children that import the helper the server imported with this
module: their import runs nothing, so they never touch CUDA (the server
itself did initialize it)."""
import multiprocessing as mp

import gpu_flags


def tokenize(line):
    import gpu_flags

    return line.split() if gpu_flags.BF16 else line.split(",")


if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(tokenize, ["a b", "c d"]))
