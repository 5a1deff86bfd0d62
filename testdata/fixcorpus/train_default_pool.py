"""A training script as users write it: the device is picked with
torch.cuda.is_available(), the model moved to it, and a pool with the default
start method ("fork" up to Python 3.13) scores the shards on the GPU. The
NVML check would leave `.to(device)` initializing CUDA before the fork; the
fix starts the pool with "spawn"."""
# fixcorpus: CFL001 unsafe
import multiprocessing

import torch


def score(shard):
    return torch.ones(2, device="cuda").sum().item() * shard


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = torch.nn.Linear(2, 1).to(device)
    with multiprocessing.Pool(2) as pool:
        print(pool.map(score, range(4)), type(model).__name__)


if __name__ == "__main__":
    main()
