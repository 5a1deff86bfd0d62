"""Workers made in a comprehension and started by index."""
import multiprocessing as mp

import torch


def render(i):
    return torch.zeros(8, device="cuda").add_(i).sum().item()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*at `workers\\[0\\]\\.start\\(\\)`.*a Process.*and 1 other place.*uses CUDA \\(`torch\\.zeros\\(\\)`, line 8\\)"
    workers = [mp.Process(target=render, args=(i,)) for i in range(4)]
    workers[0].start()
    [w.start() for w in workers[1:]]
