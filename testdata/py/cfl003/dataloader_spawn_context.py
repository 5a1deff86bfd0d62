"""The same training loop twice: once with the default start method, which
forks the workers from a CUDA-initialized parent up to Python 3.13, and once
with multiprocessing_context="spawn", which does not fork at all."""
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.arange(64.0).unsqueeze(1), torch.arange(64.0).unsqueeze(1))


def train(loader):
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    for x, y in loader:
        loss = ((model(x.cuda()) - y.cuda()) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def forked():
    torch.cuda.init()  # want "CFL003 .*the default \"fork\" start method.*Prefer the \"spawn\" start method \\(`DataLoader\\(\\.\\.\\., multiprocessing_context=\"spawn\"\\)`\\)"
    train(DataLoader(data, batch_size=8, num_workers=2))


def spawned():
    torch.cuda.init()
    train(DataLoader(data, batch_size=8, num_workers=2, multiprocessing_context="spawn"))


if __name__ == "__main__":
    forked()
    spawned()
