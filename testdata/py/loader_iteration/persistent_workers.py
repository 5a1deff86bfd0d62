"""Without persistent_workers every epoch's iteration forks the workers
again, so CUDA initialized in the first epoch is inherited from the second
on; with persistent_workers=True they are forked once, before it."""
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(64, 4))


def every_epoch():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1)
    for epoch in range(3):
        for (x,) in loader:
            model(x).sum().backward()
        model.cuda()  # want "CFL003 .*forks at `loader` \\(line 14: .*on the loop's next iteration"


def persistent():
    loader = DataLoader(data, batch_size=8, num_workers=2, persistent_workers=True)
    model = torch.nn.Linear(4, 1)
    for epoch in range(3):
        for (x,) in loader:
            model(x).sum().backward()
        model.cuda()
