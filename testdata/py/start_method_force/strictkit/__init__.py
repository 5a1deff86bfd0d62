"""A toolkit that insists on "spawn", replacing whatever its user chose."""
import torch.multiprocessing as mp

mp.set_start_method("spawn", force=True)


def rollout(seed):
    import torch

    return torch.randn(4, device="cuda").sum().item() + seed
