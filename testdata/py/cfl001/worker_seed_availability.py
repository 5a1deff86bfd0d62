"""A training script that seeds every DataLoader worker the way Megatron-style
trainers do: random, NumPy, torch, and CUDA when it is available. The model
is on the GPU in the parent before the workers fork. In a forked worker
torch.cuda.is_available() answers from the device count cached before the
fork, with no driver call, and torch.cuda.manual_seed_all() is queued until
CUDA is initialized there, which it never is: the workers run
(worker_seed_current_device.py is the look-alike that fails)."""
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


def seed_worker(worker_id):
    set_random_seed(1234 + worker_id)


class Tokens(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.full((16,), i, dtype=torch.long)


def train():
    model = torch.nn.Embedding(64, 8).cuda()  # want "CFL003 .*the children never touch CUDA"
    loader = DataLoader(Tokens(), batch_size=8, num_workers=2, worker_init_fn=seed_worker)
    for batch in loader:
        model(batch.cuda()).sum().backward()


if __name__ == "__main__":
    train()
