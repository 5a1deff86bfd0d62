"""accelerate's cv_example: Accelerator(cpu=args.cpu) with --cpu a
store_true option. The default run (no --cpu) initializes CUDA, then the
DataLoader workers fork; only --cpu would keep the parent off the GPU."""
import argparse

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def training_function(args):
    accelerator = Accelerator(cpu=args.cpu)  # want "CFL003 .*DataLoader workers.*the children never touch CUDA"
    loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    for (x,) in loader:
        print(x.sum().item(), accelerator.device)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true", help="train on the CPU")
    training_function(parser.parse_args())
