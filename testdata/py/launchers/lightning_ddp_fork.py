"""A warm-up on the GPU before Trainer(strategy="ddp_fork").fit: the strategy
forks one process per device, each moves the module to its GPU, and each
fails. Lightning's check before forking asks torch.cuda._is_in_bad_fork(),
which is False in the parent, so it does not stop the fork (measured with
ddp_notebook: ProcessRaisedException from the child)."""
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.layer(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)


def main():
    probe = torch.ones(1, device="cuda")  # want "CFL001 `torch\\.ones\\(\\)`.*trainer\\.fit.*\"fork\" start method.*uses CUDA \\(`lightning\\.Trainer\\(\\)`"
    print(probe.item())
    data = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))
    trainer = L.Trainer(accelerator="gpu", devices=2, strategy="ddp_fork", max_epochs=1)
    trainer.fit(Regressor(), DataLoader(data, batch_size=8))


if __name__ == "__main__":
    main()
