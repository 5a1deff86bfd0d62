"""A DataLoader made through functools.partial (DGL's point-cloud scripts):
the workers the partial binds start where the loader is iterated, here at
import time of a script without a main guard."""
from functools import partial

import torch
from torch.utils.data import DataLoader, TensorDataset

CustomDataLoader = partial(DataLoader, num_workers=8, batch_size=4, drop_last=True)
SerialLoader = partial(DataLoader, batch_size=4)

train_loader = CustomDataLoader(TensorDataset(torch.randn(64, 3)))
for (x,) in train_loader:  # want "CFL005 Children are started at `train_loader` \\(line 13: DataLoader workers"
    print(x.shape)
for (x,) in SerialLoader(TensorDataset(torch.randn(64, 3))):
    print(x.shape)
