"""Evaluating a model on the GPU over several splits: zip() pairs each
split's name with its loader and starts nothing itself; each loader's
workers fork where evaluate() iterates it."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader):
    with torch.no_grad():
        return sum(model(x.cuda()).sum().item() for (x,) in loader)


def evaluate_splits(model, splits):
    loaders = [DataLoader(TensorDataset(torch.randn(n, 4)), batch_size=8, num_workers=2) for n in splits.values()]
    model = model.cuda()  # want "CFL003 `\\.cuda\\(\\)` initializes CUDA before the process forks at `loader` \\(line 10: DataLoader workers, the default \"fork\" start method\\); the children never touch CUDA"
    for name, loader in zip(splits, loaders):
        print(name, evaluate(model, loader))


if __name__ == "__main__":
    evaluate_splits(torch.nn.Linear(4, 1), {"val": 64, "test": 32})
