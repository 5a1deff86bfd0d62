"""The same training under the main guard: nothing starts at import time.
A loader without workers forks nothing after CUDA is initialized, nor does a
Trainer never fit; one with workers forks at the fit, deep inside the
library."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from minitrainer import Classifier, Trainer

data = TensorDataset(torch.randn(64, 4))


def never_fit():
    torch.cuda.init()
    trainer = Trainer(model=Classifier(module=torch.nn.Linear(4, 2)), train_dataloader=DataLoader(data, num_workers=2))
    return trainer.state.max_duration


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"  # want "CFL003 `torch\\.cuda\\.is_available\\(\\)` initializes CUDA before the process forks at `iter\\(self\\.state\\.dataloader\\)` \\(trainer\\.py:26: DataLoader workers"
    model = Classifier(module=torch.nn.Linear(4, 2).to(device), num_classes=2)
    quiet = Trainer(model=model, train_dataloader=DataLoader(data, batch_size=8), max_duration=1, device=device)
    quiet.fit()
    trainer = Trainer(model=model, train_dataloader=DataLoader(data, batch_size=8, num_workers=2), max_duration=1)
    trainer.fit()
