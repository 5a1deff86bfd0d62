"""A small training library the notebooks next to it import (minGPT's
mingpt/trainer.py shape): its default config asks for 4 loader workers,
and the trainer reads the config it is handed when it runs."""
from torch.utils.data import DataLoader


class CfgNode:
    """A configuration node: attributes set on it after it is made."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


class Trainer:
    @staticmethod
    def get_default_config():
        C = CfgNode()
        C.num_workers = 4
        C.batch_size = 8
        return C

    def __init__(self, config, model, train_dataset):
        self.config = config
        self.model = model
        self.train_dataset = train_dataset

    def run(self):
        config = self.config
        loader = DataLoader(self.train_dataset, batch_size=config.batch_size, num_workers=config.num_workers)
        for batch in loader:  # want "CFL007 .*`SortDataset`, defined in this notebook"
            self.model(batch)
