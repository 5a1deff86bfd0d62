"""The same script without torch._six: it runs on Python 3.14, whose
forkserver re-imports it and dies at the top-level loader."""
import torch
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # want "CFL003 .*Python 3\\.11–3\\.13 on Linux" "CFL004 .*Python 3\\.14\\.0 on Linux"

dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
loader = DataLoader(dataset, batch_size=8, num_workers=2)

model = torch.nn.Linear(8, 2).to(device)
for x, y in loader:  # want "CFL005 .*Python 3\\.14–3\\.15 on Linux"
    if isinstance(y, str):
        continue
    loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    loss.backward()
