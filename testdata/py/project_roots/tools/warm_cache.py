"""Fills the dataset cache with worker processes before a training run."""
import multiprocessing as mp
import sys

from shared import cuda_env  # want "CFL003 .*`shared\\.cuda_env`.*cuda_env\\.py:6"


def fill(shard):
    return sum(range(shard))


if __name__ == "__main__":
    print("caching for", cuda_env.DEVICE)
    with mp.get_context("fork").Pool(4) as pool:
        print(pool.map(fill, [int(a) for a in sys.argv[1:]]))
