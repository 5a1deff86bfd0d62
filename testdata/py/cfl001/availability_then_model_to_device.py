"""A training script: the device is picked with torch.cuda.is_available(), the
model is moved to it, and a pool scores the shards on the GPU. The pool takes
the default start method, "fork" up to Python 3.13. Setting
PYTORCH_NVML_BASED_CUDA_CHECK=1 would not help: `.to(device)` initializes CUDA
before the fork all the same; starting the pool with "spawn" does."""
import multiprocessing

import torch


def score(shard):
    return torch.ones(4, device="cuda").sum().item() * shard


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"  # want "CFL001 `torch\\.cuda\\.is_available\\(\\)` initializes CUDA before the process forks at `multiprocessing\\.Pool\\(4\\)`.*\\(`multiprocessing\\.get_context\\(\"spawn\"\\)\\.Pool\\(\\.\\.\\.\\)`\\)"
    model = torch.nn.Linear(4, 1).to(device)
    with multiprocessing.Pool(4) as pool:
        print(pool.map(score, range(8)), model)


if __name__ == "__main__":
    main()
