"""A project's own DataLoader subclass that forwards its keywords: it forks
workers when iterated like torch's. The dataset builds GPU tensors in the
worker, which fails after the parent's set_device."""
import torch
from torch.utils.data import DataLoader, Dataset


class Jitter(Dataset):
    def __len__(self):
        return 128

    def __getitem__(self, i):
        return torch.randn(16, device="cuda") * 0.01


class InfiniteLoader(DataLoader):
    def __init__(self, dataset, **kwargs):
        super().__init__(dataset, **kwargs)

    def __iter__(self):
        while True:
            yield from super().__iter__()


def main():
    torch.cuda.set_device(0)  # want "CFL001 `torch\\.cuda\\.set_device\\(\\)`.*DataLoader workers.*uses CUDA \\(`torch\\.randn\\(\\)`"
    loader = InfiniteLoader(Jitter(), batch_size=32, num_workers=4)
    for step, batch in zip(range(100), loader):
        print(step, batch.shape)


if __name__ == "__main__":
    main()
