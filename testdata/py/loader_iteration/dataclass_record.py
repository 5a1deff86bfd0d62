"""The loader is kept in a dataclass record (open_flamingo's and open_clip's
DataInfo) and iterated through it; its dataset holds CUDA tensors, so the
forked workers touch CUDA."""
from dataclasses import dataclass, field
from typing import ClassVar

import torch
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class DataInfo:
    registry: ClassVar[dict] = {}
    dataloader: DataLoader
    epochs: int = field(default=1)


def get_data():
    features = torch.randn(64, 8, device="cuda")  # want "CFL001 `torch\\.randn\\(\\)` initializes CUDA before the process forks at `info\\.dataloader` .*the child uses CUDA \\(CUDA objects passed to the child, line 20\\)"
    return DataInfo(DataLoader(TensorDataset(features), batch_size=8, num_workers=2))


if __name__ == "__main__":
    info = get_data()
    for _ in range(info.epochs):
        for (batch,) in info.dataloader:
            print(batch.sum())
