"""The safe shape: CUDA initialized under the main guard, workers started with spawn.

No finding: spawned workers start from a fresh interpreter and initialize CUDA themselves.
"""
import multiprocessing as mp

import torch


def evaluate(seed):
    torch.manual_seed(seed)
    x = torch.randn(64, 64, device="cuda")
    return float((x @ x).trace())


if __name__ == "__main__":
    model = torch.nn.Linear(64, 64).cuda()
    ctx = mp.get_context("spawn")
    with ctx.Pool(2) as pool:
        print(pool.map(evaluate, range(4)))
