"""An example script without a main guard (composer's examples/ shape): the
evaluation loaders are normalized to a tuple by a helper that calls
tuple(x) only on sequences, and the loop walks the tuple. Neither iterates
a loader, so no worker starts at import time. The training loader is
wrapped by a helper that returns its argument and is iterated at the top
level: under the 3.14 forkserver each worker re-imports this script."""
import collections.abc

import torch
from torch.utils.data import DataLoader, TensorDataset


def ensure_tuple(x):
    if x is None:
        return ()
    if isinstance(x, (str, bytes, bytearray)):
        return (x,)
    if isinstance(x, collections.abc.Sequence):
        return tuple(x)
    if isinstance(x, dict):
        return tuple(x.values())
    return (x,)


def with_progress(loader, verbose=False):
    if verbose:
        print(len(loader), "batches")
    return loader


class Evaluator:
    def __init__(self, eval_dataloader):
        eval_dataloader = ensure_tuple(eval_dataloader)
        self.names = [type(e).__name__ for e in eval_dataloader]


data = TensorDataset(torch.randn(64, 4))
eval_loader = DataLoader(data, batch_size=8, num_workers=2)
evaluator = Evaluator(eval_loader)
for loader in ensure_tuple(eval_loader):
    print(type(loader).__name__, len(loader))

train_loader = DataLoader(data, batch_size=8, num_workers=2)
train_loader = with_progress(train_loader)
for (x,) in train_loader:  # want "CFL005 Children are started at `train_loader` \\(line 45: DataLoader workers"
    print(x.shape)
