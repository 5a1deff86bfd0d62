"""A dataset places its samples on a device named by the environment. The
analysis cannot tell which: DataLoader workers are then taken to stay on the
CPU, as they are when the dataset's code cannot be seen, and the message says
so. A dataset that names the GPU is reported as using CUDA."""
import os

import torch
from torch.utils.data import DataLoader, Dataset


class EnvDeviceDataset(Dataset):
    def __init__(self, n):
        self.n = n
        self.device = os.environ.get("DATA_DEVICE", "cpu")

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.full((4,), i, device=self.device)


class GPUDataset(EnvDeviceDataset):
    def __getitem__(self, i):
        return torch.full((4,), i, device="cuda")


def train(dataset):
    for batch in DataLoader(dataset, batch_size=8, num_workers=2):
        print(batch.sum())


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 .*could not tell whether `self\\.device` names a GPU; the workers are assumed to stay on the CPU" "CFL001 .*the child uses CUDA \\(`torch\\.full\\(\\)`"
    train(EnvDeviceDataset(64))
    train(GPUDataset(64))
