"""A loader prepared by accelerate but never iterated forks nothing (the
evaluation loader here is only measured)."""
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    eval_dataloader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    eval_dataloader = accelerator.prepare(eval_dataloader)
    torch.cuda.init()
    accelerator.print(f"{len(eval_dataloader)} evaluation batches")


if __name__ == "__main__":
    main()
