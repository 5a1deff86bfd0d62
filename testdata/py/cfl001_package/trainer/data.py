import torch


def make_batch(i):
    return torch.full((4,), float(i)).to(device="cuda").sum().item()
