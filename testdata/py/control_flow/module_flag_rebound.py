"""The flag starts True but a command-line switch may turn it off: bound
twice, it decides nothing, and the DataLoader may be the loader iterated."""
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

USE_FAST = True
if "--torch-loader" in sys.argv:
    USE_FAST = False
N = 1024

if not USE_FAST:
    dataset = TensorDataset(torch.randn(N, 8), torch.randn(N))
    train_loader = DataLoader(dataset, batch_size=64, num_workers=8, shuffle=True)
else:
    train_loader = [(torch.randn(64, 8), torch.randn(64)) for _ in range(N // 64)]

for x_batch, _ in train_loader:  # want "CFL005 .*DataLoader workers"
    print(x_batch.sum())
