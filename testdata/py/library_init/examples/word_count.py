"""The initialization runs inside the library, but the finding is this
script's: it is reported at the import that runs it."""
import multiprocessing as mp

import gpulib  # want "CFL003 Importing `gpulib` initializes CUDA \\(through `torch\\.cuda\\.is_available\\(\\)`, _probe\\.py:3\\) before the process forks at `mp\\.get_context\\(\"fork\"\\)\\.Pool\\(2\\)`"


def count(line):
    return len(line.split())


if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(count, ["a b", "c"]), gpulib.HAS_CUDA)
