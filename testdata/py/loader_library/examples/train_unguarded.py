"""An example of the library's own repository without a main guard
(composer's examples/profiler_demo.py): trainer.fit() at the top level
iterates the loader deep inside the library, so 3.14's forkserver children,
which re-import this script, start workers again while bootstrapping. The
finding is reported here, at the script's call: the library is not the
script's own code."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from minitrainer import Classifier, Trainer

train_dataloader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=8, persistent_workers=True)
model = Classifier(module=torch.nn.Linear(4, 2), num_classes=2)
trainer = Trainer(model=model, train_dataloader=train_dataloader, max_duration=2, device="cpu")
trainer.fit()  # want "CFL005 Children are started at `iter\\(self\\.state\\.dataloader\\)` \\(trainer\\.py:26: DataLoader workers, the default \"forkserver\" start method\\) and 1 other place at import time"
