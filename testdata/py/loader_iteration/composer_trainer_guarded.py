"""Composer Trainers that start no worker after a CUDA initialization, nor
at import time: a fit under the main guard whose loader has no workers,
eval() (which iterates the eval loaders, not the training one), a fit
handed a loader of its own (which replaces the one the Trainer was made
with), a Trainer never fit. The guarded fit of a Trainer made with an
evaluation loader that has workers forks."""
import torch
from composer import Trainer
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(64, 4))
workers = DataLoader(data, batch_size=8, num_workers=2)
trainer = Trainer(model=None, train_dataloader=workers, max_duration=2)


def eval_only(model):
    torch.cuda.init()
    trainer = Trainer(model=model, train_dataloader=workers, eval_dataloader=DataLoader(data, batch_size=8))
    trainer.eval()


def fit_replaces_loader(model):
    torch.cuda.init()
    trainer = Trainer(model=model, train_dataloader=workers, max_duration="1ep")
    trainer.fit(train_dataloader=DataLoader(data, batch_size=8))


def never_fit(model):
    torch.cuda.init()
    trainer = Trainer(model=model, train_dataloader=workers, max_duration="1ep")
    print(trainer.state.max_duration)


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 `torch\\.cuda\\.init\\(\\)` initializes CUDA before the process forks at `with_eval\\.fit\\(\\)` \\(line 39: DataLoader workers"
    quiet = Trainer(model=None, train_dataloader=DataLoader(data, batch_size=8), max_duration=2)
    quiet.fit()
    with_eval = Trainer(model=None, train_dataloader=DataLoader(data, batch_size=8), eval_dataloader=workers)
    with_eval.fit()
