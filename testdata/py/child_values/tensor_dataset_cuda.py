"""torch's own TensorDataset over CUDA tensors: the workers index CUDA
memory. CFL001 (probes-2026-12: the workers fail)."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def main():
    ds = TensorDataset(torch.randn(64, 8, device="cuda"))  # want "CFL001 .*DataLoader workers.*CUDA objects passed to the child"
    for (b,) in DataLoader(ds, batch_size=16, num_workers=2):
        print(b.sum())


if __name__ == "__main__":
    main()
