"""A script from the Python 3.6 days that takes Iterable from collections, an
alias Python 3.10 removed: it runs on 3.9 at the newest, older than every
target, and is checked on the oldest one, whose Linux forks by default."""
from collections import Iterable

import torch
from torch.utils.data import DataLoader, TensorDataset

gpu = torch.cuda.current_device()  # want "CFL003 .*Python 3\\.11 on Linux"

loader = DataLoader(TensorDataset(torch.randn(16, 3)), batch_size=4, num_workers=2)
for batch in loader:
    if isinstance(batch, Iterable):
        print(sum(t.cuda(gpu).sum() for t in batch))
