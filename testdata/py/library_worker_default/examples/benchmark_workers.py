"""The look-alike that asks for 4 frame-counting workers at the top level:
they start at import time, and each forkserver child, re-importing this
script, starts them again while bootstrapping."""
import torch
from torch.utils.data import DataLoader

from framelib import VideoFolder

dataset = VideoFolder("clips/", num_workers_frame_counting=4)  # want "CFL005 Children are started at `list\\(loader\\)` \\(folder\\.py:27: DataLoader workers"
model = torch.nn.Linear(4, 2)


def train():
    loader = DataLoader(dataset, batch_size=8, num_workers=4)
    for batch in loader:
        model(batch)


if __name__ == "__main__":
    train()
