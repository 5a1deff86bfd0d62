"""The same record, with workers started by spawn: safe."""
from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, TensorDataset


@dataclass(frozen=True)
class DataInfo:
    dataloader: DataLoader
    sampler: object = None


def get_data():
    features = torch.randn(64, 8, device="cuda")
    loader = DataLoader(TensorDataset(features), batch_size=8, num_workers=2, multiprocessing_context="spawn")
    return DataInfo(dataloader=loader)


if __name__ == "__main__":
    for (batch,) in get_data().dataloader:
        print(batch.sum())
