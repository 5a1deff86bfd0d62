"""Puts collections.Iterable back on Python 3.10 and newer before its old
import, as scripts patched to run on new Pythons do: the script runs on
every Python, 3.14's forkserver included."""
import collections
import collections.abc
import sys

if sys.version_info >= (3, 10):
    collections.Iterable = collections.abc.Iterable

from collections import Iterable

import torch
from torch.utils.data import DataLoader, TensorDataset

gpu = torch.cuda.current_device()  # want "CFL003 .*Python 3\\.11–3\\.13 on Linux" "CFL004 .*Python 3\\.14\\.0 on Linux"

loader = DataLoader(TensorDataset(torch.randn(16, 3)), batch_size=4, num_workers=2)
for batch in loader:  # want "CFL005 .*Python 3\\.14–3\\.15 on Linux"
    if isinstance(batch, Iterable):
        print(sum(t.cuda(gpu).sum() for t in batch))
