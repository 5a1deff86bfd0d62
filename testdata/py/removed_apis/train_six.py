"""A training script written for torch 1.x: it imports torch._six, which
torch 2.0 removed, so it runs on Python 3.11 at the newest and never meets
3.14's default forkserver. Its DataLoader workers are forked."""
import torch
from torch._six import container_abcs, string_classes
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # want "CFL003 .*\"fork\".*Python 3\\.11 on Linux"

dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
loader = DataLoader(dataset, batch_size=8, num_workers=2)

model = torch.nn.Linear(8, 2).to(device)
for x, y in loader:
    if isinstance(x, container_abcs.Sequence) or isinstance(y, string_classes):
        continue
    loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    loss.backward()
