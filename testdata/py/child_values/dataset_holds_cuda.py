"""A Dataset that stores tensors the parent created on the GPU: the forked
workers index them and fail (measured, probes-2026-12)."""
import torch
from torch.utils.data import DataLoader, Dataset


class Features(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def main():
    x = torch.randn(256, 8, device="cuda")  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`self\\.x`, line 15\\)"
    y = torch.randint(0, 2, (256,), device="cuda")
    for xb, yb in DataLoader(Features(x, y), batch_size=32, num_workers=2):
        print(xb.shape, yb.shape)


if __name__ == "__main__":
    main()
