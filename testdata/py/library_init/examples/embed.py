"""Another script importing the same library gets its own finding, here an
error: its children use CUDA."""
import multiprocessing as mp

import torch

from gpulib import HAS_CUDA  # want "CFL001 Importing `gpulib` initializes CUDA \\(through `torch\\.cuda\\.is_available\\(\\)`, _probe\\.py:3\\) before the process forks"


def embed(values):
    return torch.tensor(values, device="cuda").sum().item()


if __name__ == "__main__" and HAS_CUDA:
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(embed, [[1.0], [2.0]]))
