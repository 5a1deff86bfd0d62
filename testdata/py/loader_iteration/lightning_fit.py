"""A Lightning Trainer iterates the loaders handed to fit(), and those its
LightningModule's *_dataloader hooks return."""
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).sum()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

    def train_dataloader(self):
        return DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)


def fit_with_loader():
    loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    print("training on", torch.cuda.get_device_name(0))  # want "CFL003 .*forks at `trainer\\.fit\\(Regressor\\(\\), loader\\)` \\(line 28"
    trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=1)
    trainer.fit(Regressor(), loader)


def fit_with_hooks():
    print("training on", torch.cuda.get_device_name(0))  # want "CFL003 .*forks at `trainer\\.fit\\(model\\)` \\(line 35"
    trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=1)
    model = Regressor()
    trainer.fit(model)


def fit_without_workers():
    # The loader handed to fit replaces the module's train_dataloader():
    # no workers, no fork.
    torch.cuda.init()
    trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=1)
    trainer.fit(Regressor(), train_dataloaders=DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8))


def validate_on_each_split():
    # A list of loaders handed to validate(): Lightning iterates each, but
    # inside code the analysis does not follow, so their start is assumed
    # there, and says so.
    val = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    test = DataLoader(TensorDataset(torch.randn(32, 4)), batch_size=8, num_workers=2)
    torch.cuda.init()  # want "CFL003 .*forks at `trainer\\.validate\\(Regressor\\(\\), dataloaders=\\[va\\.\\.\\.` \\(line 54: DataLoader workers, the default \"fork\" start method; it is handed to a library call that may iterate it"
    trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=1)
    trainer.validate(Regressor(), dataloaders=[val, test])
