"""Evaluates first and imports the torch 1.x export helper afterwards: on
torch 2 the import fails only once the evaluation's workers have run, so
they run on every Python, 3.14 included."""
import torch
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # want "CFL003 .*Python 3\\.11–3\\.13 on Linux" "CFL004 .*Python 3\\.14\\.0 on Linux"
for (x,) in DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=2, num_workers=2):  # want "CFL005 .*Python 3\\.14–3\\.15 on Linux"
    print(x.to(device).sum())

from torch._six import inf

print("export threshold", inf)
