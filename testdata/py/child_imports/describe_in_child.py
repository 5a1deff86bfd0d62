"""Loader workers format items with gpu_tool.describe, imported in the
worker. The import runs gpu_tool's top level, not its
`if __name__ == "__main__":` block, so the workers never touch CUDA."""
import torch
from torch.utils.data import DataLoader, Dataset


class Items(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        from gpu_tool import describe

        return describe(i)


if __name__ == "__main__":
    model = torch.nn.Linear(4, 4).cuda()  # want "CFL003 .*DataLoader workers.*the children never touch CUDA"
    for batch in DataLoader(Items(), num_workers=2):
        print(batch, model)
