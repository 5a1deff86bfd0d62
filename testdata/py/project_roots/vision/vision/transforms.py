"""CPU-side image transforms: nothing here touches the GPU."""
import torch


def normalize(batch):
    t = torch.tensor(batch, dtype=torch.float32)
    return ((t - t.mean()) / (t.std() + 1e-6)).tolist()
