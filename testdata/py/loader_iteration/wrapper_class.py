"""A local wrapper around a loader (a prefetcher, detectron2's
AspectRatioGroupedDataset): building it forks nothing, iterating it iterates
the loader inside."""
import torch
from torch.utils.data import DataLoader, TensorDataset


class Prefetcher:
    def __init__(self, loader, device):
        self.loader = loader
        self.device = device

    def __iter__(self):
        for (x,) in self.loader:
            yield x.to(self.device, non_blocking=True)


def train():
    loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    device = torch.device("cuda")
    model = torch.nn.Linear(4, 1).to(device)  # want "CFL003 .*forks at `Prefetcher\\(loader, device\\)` \\(line 23"
    prefetcher = Prefetcher(loader, device)
    for x in Prefetcher(loader, device):
        model(x)


def build_only():
    loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    torch.cuda.init()
    return Prefetcher(loader, torch.device("cuda"))


class Trainer:
    def __init__(self, model, data_loader):
        self.model = model
        self._data_loader_iter = None
        self.data_loader = data_loader


class DefaultTrainer(Trainer):
    def __init__(self, model, data_loader):
        # Only keeps the loader (detectron2's DefaultTrainer builds and wraps
        # it; run_step, never called here, would iterate it).
        super().__init__(model, data_loader)


def build_trainer():
    torch.cuda.init()
    loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    return DefaultTrainer(torch.nn.Linear(4, 1).cuda(), loader)
