"""A benchmark script that builds its dataset at the top level and leaves
the frame counting at the library's default of no workers: nothing starts
at import time, so forkserver children re-import it safely."""
import torch
from torch.utils.data import DataLoader

from framelib import VideoFolder

dataset = VideoFolder("clips/")
model = torch.nn.Linear(4, 2)


def train():
    loader = DataLoader(dataset, batch_size=8, num_workers=4)
    for batch in loader:
        model(batch)


if __name__ == "__main__":
    train()
