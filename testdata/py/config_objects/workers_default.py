"""The look-alike that forks: the script keeps the default config's 4 loader
workers, forked after the script put the model on the GPU, and the
workers build their samples on the GPU."""
import sys

import torch
from torch.utils.data import DataLoader, Dataset


class CfgNode:
    """A configuration node: attributes set on it after it is made."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


class GpuNoise(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.randn(8, device="cuda").cpu()


class Trainer:
    @staticmethod
    def get_default_config():
        C = CfgNode()
        C.device = "cuda"
        C.num_workers = 4
        C.batch_size = 8
        return C

    def __init__(self, config, model, train_dataset):
        self.config = config
        self.model = model
        self.train_dataset = train_dataset

    def run(self):
        model, config = self.model, self.config
        loader = DataLoader(self.train_dataset, batch_size=config.batch_size, num_workers=config.num_workers)
        for batch in loader:
            model(batch.to(config.device))


def main():
    train_config = Trainer.get_default_config()
    train_config.batch_size = 16
    model = torch.nn.Linear(8, 1).cuda()  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`torch\\.randn\\(\\)`"
    trainer = Trainer(train_config, model, GpuNoise())
    trainer.run()


if __name__ == "__main__":
    main()
