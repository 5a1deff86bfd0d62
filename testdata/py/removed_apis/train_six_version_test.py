"""Picks torch._six by the installed torch's version, as NVIDIA apex did: on
torch 2 the import never runs, and the script runs on 3.14 too."""
import torch
from torch.utils.data import DataLoader, TensorDataset

TORCH_MAJOR = int(torch.__version__.split(".")[0])
if TORCH_MAJOR < 2:
    from torch._six import string_classes
else:
    string_classes = str

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # want "CFL003 .*Python 3\\.11–3\\.13 on Linux" "CFL004 .*Python 3\\.14\\.0 on Linux"

dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
loader = DataLoader(dataset, batch_size=8, num_workers=2)

for x, y in loader:  # want "CFL005 .*Python 3\\.14–3\\.15 on Linux"
    if isinstance(y, string_classes):
        continue
    print(x.to(device).sum())
