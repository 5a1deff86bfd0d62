"""A dataset whose __getitem__ reads a normalisation tensor made at import
time: DataLoader workers run it, so the move is display-only."""
# fixcorpus: CFL004 display-only
import torch
from torch.utils.data import DataLoader, Dataset

NORM = torch.tensor([2.0, 4.0]).cuda()


class Pairs(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.tensor([float(i), float(i + 1)]) / NORM


if __name__ == "__main__":
    for batch in DataLoader(Pairs(), batch_size=2, num_workers=2, multiprocessing_context="spawn"):
        print(batch.tolist())
