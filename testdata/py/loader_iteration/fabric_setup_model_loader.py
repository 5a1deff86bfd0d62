"""A Fabric script whose model makes its own loader (Lightning's parity
tests shape): fabric.setup returns the model wrapped, and the wrapper
forwards attribute access, so model.get_dataloader() after the setup is the
model's method. Fabric.launch() sets up the device; the workers fork where
the loader is first iterated."""
import torch
from lightning.fabric import Fabric
from torch.utils.data import DataLoader, TensorDataset


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def forward(self, x):
        return self.layer(x)

    def get_optimizer(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

    def get_dataloader(self):
        return DataLoader(TensorDataset(torch.rand(64, 4)), batch_size=8, num_workers=2)


def train(fabric):
    model = ConvNet()
    optimizer = model.get_optimizer()
    model, optimizer = fabric.setup(model, optimizer)
    dataloader = fabric.setup_dataloaders(model.get_dataloader())
    iterator = iter(dataloader)
    for _ in range(4):
        (x,) = next(iterator)
        fabric.backward(model(x).sum())
        optimizer.step()


if __name__ == "__main__":
    fabric = Fabric(accelerator="cuda", devices=1)
    fabric.launch()  # want "CFL003 .*forks at `iter\\(dataloader\\)` \\(line 31: DataLoader workers.*the children never touch CUDA"
    train(fabric)
