"""The look-alike that names "forkserver": each worker re-imports the script and
iterates the loader again while bootstrapping."""
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=4)
args = parser.parse_args()

loader = DataLoader(
    TensorDataset(torch.arange(8)),
    num_workers=args.workers,
    multiprocessing_context="forkserver",
)
for batch in loader:  # want "CFL005 .*the \"forkserver\" start method"
    print(batch)
