"""A plain script without a main guard whose loader's context comes from the
command line (`getattr(args, "mp_ctx", "forkserver")`): whether its workers
re-import the script depends on a value the analysis cannot see, so no error
claims they do."""
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=4)
args = parser.parse_args()

loader = DataLoader(
    TensorDataset(torch.arange(8)),
    num_workers=args.workers,
    multiprocessing_context=getattr(args, "mp_ctx", "forkserver"),
)
for batch in loader:
    print(batch)
