"""A training library: a runner script imports it, none of its callers are here.
train() puts its model in training mode with model.train() and evaluate() puts
it back with model.eval(): those are calls of the model's methods, not of this
module's functions, so train runs as an entry point of its own, and its workers
fork after the model went to the GPU."""
import torch
from torch.utils.data import DataLoader


def evaluate(model, dataset):
    model.eval()
    with torch.no_grad():
        return sum(model(x.cuda()).sum().item() for x, _ in DataLoader(dataset, batch_size=64))


def train(model, dataset, epochs=2):
    model = model.cuda()  # want "CFL003 .*forks at `loader` \\(line 22: DataLoader workers"
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4)
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            loss = ((model(x.cuda()) - y.cuda()) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return evaluate(model, dataset)
