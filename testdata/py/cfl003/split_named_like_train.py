"""Training helpers called by a notebook or a test runner, not by this file. The
dataset split "train" is data, not a call of train(): train runs as an entry
point of its own, and its workers fork after the model went to the GPU."""
import torch
from torch.utils.data import DataLoader, TensorDataset

SPLITS = {"train": 0.8, "val": 0.2}


def load(split):
    n = int(1000 * SPLITS[split])
    return TensorDataset(torch.randn(n, 4), torch.randn(n, 1))


def train(epochs=2):
    loader = DataLoader(load("train"), batch_size=32, shuffle=True, num_workers=4)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `loader` \\(line 20: DataLoader workers"
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for x, y in loader:
            loss = ((model(x.cuda()) - y.cuda()) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model
