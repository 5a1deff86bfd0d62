"""Training helpers (each one an entry point of its own): the workers start where
the loader is iterated, through whatever wraps it: tqdm, enumerate, iter/next,
list, zip, a comprehension, `yield from`."""
import torch
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

data = TensorDataset(torch.randn(64, 4))


def train_tqdm():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `tqdm\\(loader, desc=\"train\"\\)` \\(line 14: DataLoader workers"
    for (x,) in tqdm(loader, desc="train"):
        model(x.cuda())


def train_enumerate_tqdm():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `enumerate\\(tqdm\\(loader\\)\\)` \\(line 21"
    for step, (x,) in enumerate(tqdm(loader)):
        model(x.cuda())


def first_batch():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `iter\\(loader\\)` \\(line 28"
    (x,) = next(iter(loader))
    return model(x.cuda())


def all_batches():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `list\\(loader\\)` \\(line 35"
    batches = list(loader)
    return [model(x.cuda()) for (x,) in batches]


def paired():
    left = DataLoader(data, batch_size=8, num_workers=2)
    right = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `zip\\(left, right\\)` \\(line 43"
    for (a,), (b,) in zip(left, right):
        model(a.cuda() + b.cuda())


def comprehension():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `loader` \\(line 50"
    return [model(x.cuda()) for (x,) in loader]


def stream(loader):
    yield from loader


def main():
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `yield from loader` \\(line 54"
    for (x,) in stream(DataLoader(data, batch_size=8, num_workers=2)):
        model(x.cuda())

