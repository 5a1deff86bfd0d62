"""len() and print() of a DataLoader do not start its workers: the only
iteration happens before CUDA is initialized (seen in pytorch/examples)."""
import torch
from torch.utils.data import DataLoader, Dataset


class OnGpu(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.ones(1, device="cuda").cpu()


if __name__ == "__main__":
    loader = DataLoader(OnGpu(), batch_size=2, num_workers=2)
    warmup = [b for b in loader]
    torch.cuda.init()
    print(len(loader), loader, isinstance(loader, DataLoader))
