"""The look-alike that fails: the dataset holds the weight of a module on the
GPU, a CUDA tensor, and the workers index it."""
import torch
from torch.utils.data import DataLoader, Dataset


class Rows(Dataset):
    def __init__(self, weight):
        self.weight = weight

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.weight[i]


if __name__ == "__main__":
    layer = torch.nn.Linear(8, 4).cuda()  # want "CFL001 .*DataLoader workers.*the child uses CUDA \\(`self\\.weight`, line 15\\)"
    for row in DataLoader(Rows(layer.weight), batch_size=2, num_workers=2):
        print(row.sum())
