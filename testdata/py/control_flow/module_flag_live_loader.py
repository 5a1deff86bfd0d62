"""The same choice with USE_FAST bound once to False: the torch DataLoader
is the loader iterated, and its workers start at import time."""
import torch
from torch.utils.data import DataLoader, TensorDataset

USE_FAST = False
N = 1024

if not USE_FAST:
    dataset = TensorDataset(torch.randn(N, 8), torch.randn(N))
    train_loader = DataLoader(dataset, batch_size=64, num_workers=8, shuffle=True)
else:
    train_loader = [(torch.randn(64, 8), torch.randn(64)) for _ in range(N // 64)]


def calculate_stats(loader):
    mean = 0.0
    for x_batch, _ in loader:  # want "CFL005 .*DataLoader workers"
        mean += x_batch.sum(0) / N
    return mean


mean = calculate_stats(train_loader)
print(mean)
