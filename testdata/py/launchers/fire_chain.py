"""fire.Fire continues on what a method returns: a method that returns self
lets the command line call another one after it (`python x.py setup load
data`). setup initializes CUDA, load forks DataLoader workers."""
import fire
import torch
from torch.utils.data import DataLoader


class Steps:
    def load(self, data):
        for batch in DataLoader(data, num_workers=2):
            print(batch)

    def setup(self):
        torch.cuda.init()  # want "CFL003 .*forks at `DataLoader\\(data, num_workers=2\\)` \\(line 11: DataLoader workers"
        return self


def cli():
    """The console-script entry point: nothing here calls it."""
    fire.Fire(Steps)
