"""The Dataset moves each sample to the device its constructor was given.
On "cuda" the workers fail; the CPU dataset next to it is benign."""
import torch
from torch.utils.data import DataLoader, Dataset


class Moved(Dataset):
    def __init__(self, device):
        self.device = device

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.ones(2).to(self.device)


if __name__ == "__main__":
    model = torch.nn.Linear(2, 1).cuda()  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`\\.to\\(\\)`, line 15\\)" "CFL003 .*DataLoader workers.*the children never touch CUDA"
    for b in DataLoader(Moved("cuda"), batch_size=4, num_workers=2):
        model(b)
    for b in DataLoader(Moved("cpu"), batch_size=4, num_workers=2):
        model(b.cuda())
