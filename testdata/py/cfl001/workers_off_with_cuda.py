"""Inverse-transform checks (MONAI's tests): the loaders run their
transforms in the main process whenever a GPU is there, and fork two
workers only on a CPU-only Linux host. The parent that initialized CUDA
found a GPU, so every loader it iterates starts no workers."""
import sys

import torch
from torch.utils.data import DataLoader, Dataset


class Volumes(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.full((4, 4), i, device=torch.cuda.current_device())


def check_inverse():
    # num workers = 0 for mac or gpu transforms
    num_workers = 0 if sys.platform != "linux" or torch.cuda.is_available() else 2
    for batch in DataLoader(Volumes(), num_workers=num_workers, batch_size=1):
        print(batch.shape)


def train(num_workers=4):
    num_workers = 0 if torch.cuda.is_available() else num_workers
    for batch in DataLoader(Volumes(), num_workers=num_workers, batch_size=2):
        print(batch.sum())


def evaluate():
    if torch.cuda.is_available():
        workers = 0
    else:
        workers = 2
    for batch in DataLoader(Volumes(), num_workers=workers):
        print(batch.mean())


if __name__ == "__main__":
    model = torch.nn.Linear(4, 4).cuda()
    check_inverse()
    train()
    evaluate()
    print(model)
