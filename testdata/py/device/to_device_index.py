"""The look-alike of to_like_metadata_tensor.py whose flip moves to the
device index stored in the metadata: `.to(0)` is cuda:0, a CUDA use in the
worker forked after the parent moved the model to the GPU."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def orientation_flip(affine, device):
    flip = torch.as_tensor([-1.0, -1.0, 1.0, 1.0])
    return torch.diag(flip.to(device)) @ affine


class Scans(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        meta = {"affine": torch.as_tensor(np.load(self.paths[i])), "space": "RAS", "device": 0}
        return orientation_flip(meta["affine"], meta["device"])


def main():
    model = torch.nn.Conv3d(1, 1, 3).cuda()  # want "CFL001 .*the child uses CUDA \\(`\\.to\\(\\)`"
    for batch in DataLoader(Scans(["a.npy", "b.npy"]), num_workers=2):
        model(batch.cuda())


if __name__ == "__main__":
    main()
