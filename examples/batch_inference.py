"""Score a folder of images on the GPU, with a process pool for the scoring.

CFL001: the parent initializes CUDA (`torch.cuda.is_available()` runs cuInit) and then
forks pool workers under the default start method; each worker moves its batch to the GPU
and fails with "Cannot re-initialize CUDA in forked subprocess" on Python 3.13 and older.
"""
import multiprocessing as mp
import sys

import torch

DEVICE = "cuda"


def score(path):
    batch = torch.load(path)
    return float(batch.to(DEVICE).mean())


def main(paths):
    if not torch.cuda.is_available():
        sys.exit("no GPU")
    with mp.Pool(4) as pool:
        for path, value in zip(paths, pool.map(score, paths)):
            print(path, value)


if __name__ == "__main__":
    main(sys.argv[1:])
