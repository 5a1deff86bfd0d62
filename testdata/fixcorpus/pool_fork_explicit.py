"""Inference over a "fork" pool after the parent touched the GPU.

The workers read only a constant defined at the top level, so switching to
"spawn" keeps them working.
"""
# fixcorpus: CFL001 unsafe
import multiprocessing as mp

import torch

SCALE = 3.0


def infer(x):
    t = torch.tensor([x, x + 1.0], device="cuda")
    return (t * SCALE).sum().item()


def main():
    print("gpus:", torch.cuda.device_count())
    torch.cuda.init()
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        print(pool.map(infer, range(4)))


if __name__ == "__main__":
    main()
