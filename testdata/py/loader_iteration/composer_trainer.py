"""MosaicML Composer's Trainer keeps the loaders it is made with
(train_dataloader=, eval_dataloader=) and iterates them in fit(): a script
that fits at the top level, without a main guard (composer's
examples/profiler_demo.py), starts the workers at import time, and each
forkserver child re-imports it. After a CUDA initialization the fit forks
as any loop over the loader would."""
import composer
import torch
from composer import Trainer
from composer.core import Evaluator
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(64, 4))
train_dataloader = DataLoader(data, batch_size=8, num_workers=8, persistent_workers=True)
trainer = Trainer(model=None, train_dataloader=train_dataloader, max_duration=2)
trainer.fit()  # want "CFL005 Children are started at `trainer\\.fit\\(\\)` \\(line 16: DataLoader workers, the default \"forkserver\" start method\\) at import time"


def fit_after_init(model):
    loader = DataLoader(data, batch_size=8, num_workers=2)
    torch.cuda.init()  # want "CFL003 `torch\\.cuda\\.init\\(\\)` initializes CUDA before the process forks at `trainer\\.fit\\(\\)` \\(line 23: DataLoader workers"
    trainer = composer.trainer.Trainer(model=model, train_dataloader=loader, max_duration="1ep")
    trainer.fit()


def evaluators_after_init(model, train):
    # The Evaluators' loaders are iterated by fit() (every epoch, by
    # default) and by eval().
    loader = DataLoader(data, batch_size=8, num_workers=2)
    torch.cuda.init()  # want "CFL003 `torch\\.cuda\\.init\\(\\)` initializes CUDA before the process forks at `trainer\\.fit\\(\\)` \\(line 32: DataLoader workers.*and 1 other place"
    trainer = Trainer(model=model, train_dataloader=train, eval_dataloader=[Evaluator(label="val", dataloader=loader)])
    trainer.fit()
    trainer.eval()
