"""Written for torch 1.x and 2.x alike: torch._six is imported where it
exists, and collections.abc stands in for it elsewhere. The script runs on
every Python, 3.14's forkserver included."""
import torch
from torch.utils.data import DataLoader, TensorDataset

try:
    from torch._six import container_abcs
except ImportError:  # torch 2.0 removed torch._six
    import collections.abc as container_abcs

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # want "CFL003 .*Python 3\\.11–3\\.13 on Linux" "CFL004 .*Python 3\\.14\\.0 on Linux"

dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
loader = DataLoader(dataset, batch_size=8, num_workers=2)

model = torch.nn.Linear(8, 2).to(device)
for x, y in loader:  # want "CFL005 .*Python 3\\.14–3\\.15 on Linux"
    if isinstance(x, container_abcs.Sequence):
        continue
    loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    loss.backward()
