"""The look-alike of worker_seed_availability.py whose worker also logs the
device it is on: torch.cuda.current_device() initializes CUDA in the worker,
forked after the parent moved the model to the GPU, and fails there."""
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def set_random_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed(seed)
        torch.cuda.manual_seed_all(seed)


def seed_worker_on_current_device(worker_id):
    set_random_seed(1234 + worker_id)
    print("worker", worker_id, "on", torch.cuda.current_device())


class Tokens(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.full((16,), i, dtype=torch.long)


def train_logging_devices():
    model = torch.nn.Embedding(64, 8).cuda()  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`torch\\.cuda\\.current_device\\(\\)`"
    loader = DataLoader(Tokens(), batch_size=8, num_workers=2, worker_init_fn=seed_worker_on_current_device)
    for batch in loader:
        model(batch.cuda()).sum().backward()


if __name__ == "__main__":
    train_logging_devices()
