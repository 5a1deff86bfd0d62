"""The training library of a project whose launcher is not in this tree: nothing
here calls train(), so it runs as an entry point of its own, and its workers
fork after the model went to the GPU. finetune.py takes evaluate() from it and
calls model.train() on its own model: that is not this train()."""
import torch
from torch.utils.data import DataLoader


def evaluate(model, dataset):
    with torch.no_grad():
        return sum(model(x).sum().item() for x, _ in DataLoader(dataset, batch_size=64))


def train(model, dataset, epochs=2):
    model = model.cuda()  # want "CFL003 .*forks at `loader` \\(line 19: DataLoader workers"
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4)
    for epoch in range(epochs):
        for x, y in loader:
            loss = ((model(x.cuda()) - y.cuda()) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model
