"""A medical-imaging loader: each scan's metadata dict holds its affine (a
CPU tensor loaded in the worker) beside a space name and a rank, and the
orientation flip moves its constant to the affine's device with
`.to(affine)`. Read through a key the analysis cannot evaluate, the affine
may also be the string or the int of that dict; a tensor moves to its own
device, so the flip is no certain CUDA use in the forked workers (a
possible one at most: a warning that names it). to_device_index.py is the
look-alike that moves to a GPU index."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def orientation_flip(affine):
    flip = torch.as_tensor([-1.0, -1.0, 1.0, 1.0])
    return torch.diag(flip.to(affine)) @ affine


class Scans(Dataset):
    def __init__(self, paths, affine_key="affine"):
        self.paths = paths
        self.affine_key = affine_key

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        meta = {"affine": torch.as_tensor(np.load(self.paths[i])), "space": "RAS", "spatial_dims": 0}
        return orientation_flip(meta[self.affine_key])


def main():
    model = torch.nn.Conv3d(1, 1, 3).cuda()  # want "CFL003 .*could not tell whether `flip\\.to\\(affine\\)` is on the GPU"
    for batch in DataLoader(Scans(["a.npy", "b.npy"]), num_workers=2):
        model(batch.cuda())


if __name__ == "__main__":
    main()
