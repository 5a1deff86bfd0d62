"""Accelerator() in the parent, and a dataset that moves its samples to the GPU
inside the worker: the forked workers fail ("Cannot re-initialize CUDA in
forked subprocess"), and neither accelerate nor torch warns beforehand,
since Accelerator() leaves torch.cuda.is_initialized() False (measured in
/work/eval: RuntimeError in DataLoader worker 0)."""
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class OnDevice(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return torch.full((4,), float(i), device="cuda")


def main():
    accelerator = Accelerator()  # want "CFL001 `accelerate\\.Accelerator\\(\\)`.*DataLoader workers.*uses CUDA"
    loader = DataLoader(OnDevice(), batch_size=4, num_workers=2)
    for batch in loader:
        accelerator.print(batch.sum())


if __name__ == "__main__":
    main()
