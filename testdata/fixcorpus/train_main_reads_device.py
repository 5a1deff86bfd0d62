"""A training script: the device is chosen at import time, and only the
training function, which the main guard calls, reads it; spawn DataLoader
workers re-import the module. The choice moves under the guard."""
# fixcorpus: CFL004 unsafe
import torch
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Squares(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return torch.tensor([float(i), float(i * i)])


def train(epochs):
    model = torch.nn.Linear(2, 1).to(device)
    loader = DataLoader(Squares(), batch_size=2, num_workers=2, multiprocessing_context="spawn")
    for epoch in range(epochs):
        total = 0.0
        for batch in loader:
            total += model(batch.to(device)).sum().item()
        print(f"epoch {epoch}: {total:.4f}")


if __name__ == "__main__":
    train(2)
