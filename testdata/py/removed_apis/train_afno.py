"""Trains the operator network, whose module imports numpy.lib.arraypad: on
NumPy 2 the import fails, and NumPy 1.26, the last 1.x, has no build newer
than Python 3.12. The script never meets 3.14's forkserver, so only the
fork of its DataLoader workers after CUDA is initialized is reported."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from afno_net import AFNONet

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # want "CFL003 .*Python 3\\.11–3\\.12 on Linux"

model = AFNONet().to(device)
loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
for (x,) in loader:
    loss = model(x.to(device)).pow(2).mean()
    loss.backward()
