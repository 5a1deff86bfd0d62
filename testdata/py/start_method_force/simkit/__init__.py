"""A simulation toolkit that prefers "spawn" for its worker processes, but keeps
a start method its user chose before importing it."""
import warnings

import torch.multiprocessing as mp

try:
    mp.set_start_method("spawn")
except RuntimeError:
    warnings.warn("simkit: a start method was already set; keeping it")


def rollout(seed):
    import torch

    return torch.randn(4, device="cuda").sum().item() + seed
