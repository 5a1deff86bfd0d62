"""Loaders kept in a dict, as the PyTorch transfer-learning tutorial does: the
model does not follow the dict, so the workers are taken to start where each
loader is made. A list of loaders is followed to its iteration."""
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(64, 4))


def train_model_dict():
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `DataLoader\\(data, batch_size=8, num_workers=2\\)` \\(line 12: DataLoader workers, the default \"fork\" start method; it is kept in a container, iterated later\\)"
    dataloaders = {phase: DataLoader(data, batch_size=8, num_workers=2) for phase in ["train", "val"]}
    loaders = {}
    loaders["test"] = DataLoader(data, batch_size=8, num_workers=2)
    for phase in ["train", "val"]:
        for (x,) in dataloaders[phase]:
            model(x.cuda())


def train_model_list():
    train = DataLoader(data, batch_size=8, num_workers=2)
    val = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `loader` \\(line 25: DataLoader workers"
    for loader in [train, val]:
        for (x,) in loader:
            model(x.cuda())


def private_iterator():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    torch.cuda.init()  # want "CFL003 .*forks at `loader\\._get_iterator\\(\\)` \\(line 32: DataLoader workers"
    iterator = loader._get_iterator()
    return [w.pid for w in iterator._workers]
