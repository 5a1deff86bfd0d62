"""Inference fan-out over a fork pool after the model went to the GPU."""
import multiprocessing as mp

import torch

model = None


def infer(batch):
    x = torch.tensor(batch, device="cuda")
    return model(x).sum().item()


if __name__ == "__main__":
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL001 `\\.cuda\\(\\)` initializes CUDA before the process forks at `ctx\\.Pool\\(4\\)` .*the \"fork\" start method.*Python 3\\.11–3\\.15 on Linux"
    ctx = mp.get_context("fork")
    with ctx.Pool(4) as pool:
        print(pool.map(infer, [[1.0] * 4] * 8))
