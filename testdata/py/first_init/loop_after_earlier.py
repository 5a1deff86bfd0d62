"""CUDA may be initialized before the epoch loop, and is in the loop after the
first fork: one problem, reported at the first initialization; the one in
the loop is not a second finding."""
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

if __name__ == "__main__":
    loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    if "--warmup" in sys.argv:
        torch.cuda.init()  # want "CFL003 `torch\\.cuda\\.init\\(\\)` initializes CUDA before the process forks at `loader` \\(line 15"
    model = torch.nn.Linear(4, 1)
    for epoch in range(3):
        for (x,) in loader:
            model(x).sum().backward()
        model.cuda()
