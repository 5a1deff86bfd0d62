"""The look-alike that works: the Dataset stores file paths and loads each
sample on the CPU in the worker; the model is on the GPU in the parent."""
import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class Files(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        sample = torch.load(self.paths[i], map_location="cpu")
        return sample["x"].float(), sample["y"].long()


def main(root):
    paths = [os.path.join(root, f"shard{i}.pt") for i in range(4)]
    for p in paths:
        torch.save({"x": torch.randn(8), "y": torch.tensor(1)}, p)
    model = torch.nn.Linear(8, 2).cuda()  # want "CFL003 .*DataLoader workers.*the children never touch CUDA"
    for xb, yb in DataLoader(Files(paths), batch_size=2, num_workers=2):
        model(xb.cuda())


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as root:
        main(root)
