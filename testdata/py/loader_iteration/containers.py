"""Loaders kept in containers. A dict or a list the function fills itself is
followed to where its loaders are iterated (the PyTorch transfer-learning
tutorial's dataloaders[phase]); one it fills and never iterates starts
nothing. A dict filled by a helper it is handed to goes where the model does
not follow: the workers are taken to start where each loader is made, an
assumption that makes a warning at most."""
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(64, 4))


def train_model_dict():
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `dataloaders\\[phase\\]` \\(line 19: DataLoader workers, the default \"fork\" start method\\);"
    dataloaders = {phase: DataLoader(data, batch_size=8, num_workers=2) for phase in ["train", "val"]}
    loaders = {}
    loaders["test"] = DataLoader(data, batch_size=8, num_workers=2)
    for phase in ["train", "val"]:
        for (x,) in dataloaders[phase]:
            model(x.cuda())


def train_model_list():
    train = DataLoader(data, batch_size=8, num_workers=2)
    val = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `loader` \\(line 28: DataLoader workers"
    for loader in [train, val]:
        for (x,) in loader:
            model(x.cuda())


def add_loader(out, split):
    out[split] = DataLoader(data, batch_size=8, num_workers=2)


def train_model_filled():
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `DataLoader\\(data, batch_size=8, num_workers=2\\)` \\(line 33: DataLoader workers, the default \"fork\" start method; it is kept in a container the analysis does not follow, where it may be iterated later\\)"
    loaders = {}
    add_loader(loaders, "train")
    for (x,) in loaders["train"]:
        model(x.cuda())


def private_iterator():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    torch.cuda.init()  # want "CFL003 .*forks at `loader\\._get_iterator\\(\\)` \\(line 47: DataLoader workers"
    iterator = loader._get_iterator()
    return [w.pid for w in iterator._workers]
