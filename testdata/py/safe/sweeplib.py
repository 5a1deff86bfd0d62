"""A sweep library whose launcher, tune_sweep.launch(), is in this tree: it
imports the module and calls sweeplib.sweep() after choosing spawn, so sweep()
is analyzed where it is called, under spawn, and not also on its own as if
nothing called it."""
import torch
from torch.utils.data import DataLoader


def sweep(model, dataset, rates=(1e-3, 1e-2)):
    model = model.cuda()
    loader = DataLoader(dataset, batch_size=32, num_workers=4)
    for lr in rates:
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        for x, y in loader:
            loss = ((model(x.cuda()) - y.cuda()) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
