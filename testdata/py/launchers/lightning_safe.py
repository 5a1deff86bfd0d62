"""Look-alikes of lightning_ddp_fork.py that work. After `import lightning`,
torch.cuda.is_available() asks NVML (Lightning sets
PYTORCH_NVML_BASED_CUDA_CHECK=1 at import): the forked child trained on the
GPU (measured, launchers.json). Plain "ddp" re-runs the script in
subprocesses instead of forking."""
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
    accelerator = "gpu" if torch.cuda.is_available() else "cpu"
    data = DataLoader(TensorDataset(torch.randn(64, 8), torch.randn(64, 1)), batch_size=8)
    L.Trainer(accelerator=accelerator, devices=2, strategy="ddp_notebook", max_epochs=1).fit(Regressor(), data)
    torch.zeros(1, device="cuda")
    L.Trainer(accelerator="gpu", devices=2, strategy="ddp", max_epochs=1).fit(Regressor(), data)


if __name__ == "__main__":
    main()
