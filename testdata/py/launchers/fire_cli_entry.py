"""A console-script entry point that hands main to fire.Fire: nothing in the
file calls cli or main by themselves, so cli is analyzed as an entry point,
and main through it."""
import fire
import torch
from torch.utils.data import DataLoader


def main(data, workers: int = 2):
    torch.cuda.init()  # want "CFL003 .*forks at `DataLoader\\(data, num_workers=workers\\)` \\(line 11: DataLoader workers"
    for batch in DataLoader(data, num_workers=workers):
        print(batch)


def cli():
    fire.Fire(main)
