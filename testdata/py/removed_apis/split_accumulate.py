"""Splits a dataset with torch._utils._accumulate, which torch 2.3 removed:
the script runs on Python 3.12 at the newest."""
import torch
from torch._utils import _accumulate
from torch.utils.data import DataLoader, Subset, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"  # want "CFL003 .*Python 3\\.11–3\\.12 on Linux"

dataset = TensorDataset(torch.randn(100, 3))
lengths = [80, 20]
train, val = [Subset(dataset, range(offset - n, offset)) for offset, n in zip(_accumulate(lengths), lengths)]

for (x,) in DataLoader(train, batch_size=10, num_workers=2):
    print(x.to(device).mean())
