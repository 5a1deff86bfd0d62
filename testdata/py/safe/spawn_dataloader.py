"""Fork matrix: "DataLoader(spawn ctx): parent init, __getitem__ uses cuda" — ok."""
import torch
from torch.utils.data import DataLoader, Dataset


class GpuDS(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.ones(1, device="cuda").cpu()


if __name__ == "__main__":
    torch.zeros(1, device="cuda")
    for b in DataLoader(GpuDS(), batch_size=2, num_workers=2, multiprocessing_context="spawn"):
        pass
