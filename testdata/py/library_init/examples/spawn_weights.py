"""A library that creates a CUDA context at import costs every spawn child
GPU memory: reported, at this script's import."""
import multiprocessing as mp

import gpulib.weights  # want "CFL004 Importing `gpulib` initializes CUDA \\(through `torch\\.cuda\\.is_available\\(\\)`, _probe\\.py:3\\) while the main module is imported, and every child"


def count(line):
    return len(line.split())


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(count, ["a b", "c"]), gpulib.weights.TABLE.sum().item())
