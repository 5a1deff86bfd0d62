"""Takes Iterable from collections.abc where it is, from collections on the
oldest Pythons: the script runs on every Python, 3.14's forkserver
included."""
try:
    from collections.abc import Iterable
except ImportError:
    from collections import Iterable

import torch
from torch.utils.data import DataLoader, TensorDataset

gpu = torch.cuda.current_device()  # want "CFL003 .*Python 3\\.11–3\\.13 on Linux" "CFL004 .*Python 3\\.14\\.0 on Linux"

loader = DataLoader(TensorDataset(torch.randn(16, 3)), batch_size=4, num_workers=2)
for batch in loader:  # want "CFL005 .*Python 3\\.14–3\\.15 on Linux"
    if isinstance(batch, Iterable):
        print(sum(t.cuda(gpu).sum() for t in batch))
