"""An evaluation script without a main guard, in the shape of
maskrcnn-benchmark's demos: build_data_loader returns the training loader
itself, and for evaluation a list of loaders, one per test set. Walking the
list hands the loaders out and starts no worker; each loader's workers
start where compute_on_dataset iterates it. Under the 3.14 forkserver
each worker re-imports this script."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def build_data_loader(datasets, is_train=True, num_workers=4):
    data_loaders = []
    for dataset in datasets:
        data_loader = DataLoader(dataset, batch_size=2, shuffle=is_train, num_workers=num_workers)
        data_loaders.append(data_loader)
    if is_train:
        assert len(data_loaders) == 1
        return data_loaders[0]
    return data_loaders


def compute_on_dataset(model, data_loader):
    results = []
    with torch.no_grad():
        for images, _ in data_loader:  # want "CFL005 Children are started at `data_loader` \\(line 25: DataLoader workers, the default \"forkserver\" start method\\) at import time"
            results.append(model(images).argmax(dim=1))
    return torch.cat(results)


model = torch.nn.Linear(4, 3).eval()
test_sets = [
    TensorDataset(torch.randn(16, 4), torch.randint(0, 3, (16,))),
    TensorDataset(torch.randn(8, 4), torch.randint(0, 3, (8,))),
]
data_loaders_val = build_data_loader(test_sets, is_train=False)
print(f"{len(data_loaders_val)} test sets")
for data_loader_val in data_loaders_val:
    predictions = compute_on_dataset(model, data_loader_val)
    print(predictions.bincount(minlength=3))

for name, data_loader_val in zip(["easy", "hard"], data_loaders_val):
    print(name, compute_on_dataset(model, data_loader_val).float().mean())
