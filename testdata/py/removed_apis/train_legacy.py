"""Loads its configuration through the legacy helper, so it runs on the
Pythons of torch 1.x alone: 3.11 at the newest."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from legacy_imports import import_file

cfg = import_file("cfg", "configs/defaults.py")
torch.cuda.set_device(0)  # want "CFL003 .*Python 3\\.11 on Linux"

loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=2, num_workers=2)
for (x,) in loader:
    print(x.cuda().sum())
