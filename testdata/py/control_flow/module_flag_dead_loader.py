"""Linear regression with a choice of loader made by a module constant
(ffcv's docs example): USE_FAST is bound once to True, so the torch
DataLoader in the `if not USE_FAST:` arm is never made, and the loop over
train_loader iterates a plain list. Nothing forks at import time."""
import torch
from torch.utils.data import DataLoader, TensorDataset

USE_FAST = True
N = 1024

if not USE_FAST:
    dataset = TensorDataset(torch.randn(N, 8), torch.randn(N))
    train_loader = DataLoader(dataset, batch_size=64, num_workers=8, shuffle=True)
else:
    train_loader = [(torch.randn(64, 8), torch.randn(64)) for _ in range(N // 64)]


def calculate_stats(loader):
    mean = 0.0
    for x_batch, _ in loader:
        mean += x_batch.sum(0) / N
    return mean


mean = calculate_stats(train_loader)
print(mean)
