"""Project helper: picks the GPU for the run."""
import torch


def init_gpu(rank=0):
    torch.cuda.set_device(rank)  # want "CFL001 .*train\\.py:\\d+"
    return torch.device("cuda", rank)
