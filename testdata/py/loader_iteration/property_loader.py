"""A dataset wrapper that builds its DataLoader and hands it out through a
property (diffusers' webdataset training scripts): reading the property gives
the loader the constructor made, and iterating it forks the workers after
the model went to the GPU. The property's setter does not hide its getter."""
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset


class Text2ImageDataset:
    def __init__(self, num_workers):
        self._train_dataset = TensorDataset(torch.randn(64, 4))
        self._train_dataloader = DataLoader(self._train_dataset, batch_size=8, num_workers=num_workers)

    @property
    def train_dataset(self):
        return self._train_dataset

    @property
    def train_dataloader(self):
        return self._train_dataloader

    @train_dataloader.setter
    def train_dataloader(self, loader):
        self._train_dataloader = loader


def main(args):
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `enumerate\\(train_dataloader\\)` \\(line 33: DataLoader workers when `--dataloader_num_workers` > 0"
    dataset = Text2ImageDataset(num_workers=args.dataloader_num_workers)
    train_dataloader = dataset.train_dataloader
    for step, (x,) in enumerate(train_dataloader):
        model(x.cuda()).sum().backward()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataloader_num_workers", type=int, default=0)
    main(parser.parse_args())
