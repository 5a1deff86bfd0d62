"""Look-alike of user_loader_subclass.py: the subclass loads in the calling
process (num_workers=0 by default), so nothing forks."""
import torch
from torch.utils.data import DataLoader, Dataset


class Jitter(Dataset):
    def __len__(self):
        return 128

    def __getitem__(self, i):
        return torch.randn(16, device="cuda") * 0.01


class InlineLoader(DataLoader):
    def __init__(self, dataset, batch_size=32, num_workers=0):
        super().__init__(dataset, batch_size=batch_size, num_workers=num_workers)


def main():
    torch.cuda.set_device(0)
    for batch in InlineLoader(Jitter()):
        print(batch.shape)


if __name__ == "__main__":
    main()
