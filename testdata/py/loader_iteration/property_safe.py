"""Look-alikes of property_loader.py that fork nothing after CUDA is
initialized: a property that would build a loader with workers but is
never read, a property whose loader has no workers, and a subclass whose
property overrides its base's with a loader without workers."""
import torch
from torch.utils.data import DataLoader, TensorDataset


class Prepared:
    def __init__(self):
        self._inline_loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=0)

    @property
    def inline_loader(self):
        return self._inline_loader

    @property
    def worker_loader(self):
        return DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=4)


class WorkersBase:
    @property
    def batches(self):
        return DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=4)


class InlineOverride(WorkersBase):
    @property
    def batches(self):
        return DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=0)


if __name__ == "__main__":
    model = torch.nn.Linear(4, 1).cuda()
    prepared = Prepared()
    for (x,) in prepared.inline_loader:
        model(x.cuda())
    for (x,) in InlineOverride().batches:
        model(x.cuda())
