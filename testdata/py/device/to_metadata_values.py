"""A medical-imaging loader whose scans carry their affine as the NumPy
array read from disk, beside a space name and a spatial rank; the LPS flip
converts its constant to the affine's type with `.to(affine)`. Read
through a key the analysis cannot evaluate, the affine may be any of the
dict's values: "LPS", 3 or the array. The 3 would be a GPU index, but a
value that is no device ("LPS") says the set is no evaluation of a device:
the flip is no certain CUDA use in the forked workers (a warning that
names it). The look-alike below reads the device by its own key: "cuda",
a CUDA use in its workers."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def orientation_flip(affine):
    flip = torch.as_tensor([-1.0, -1.0, 1.0, 1.0])
    return torch.diag(flip.to(affine)) @ torch.as_tensor(affine)


class Scans(Dataset):
    def __init__(self, paths, affine_key="affine"):
        self.paths = paths
        self.affine_key = affine_key

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        meta = {"affine": np.load(self.paths[i]), "space": "LPS", "spatial_dims": 3}
        return orientation_flip(meta[self.affine_key])


class DeviceScans(Scans):
    def __getitem__(self, i):
        meta = {"affine": np.load(self.paths[i]), "space": "LPS", "device": "cuda"}
        flip = torch.as_tensor([-1.0, -1.0, 1.0, 1.0])
        return flip.to(meta["device"])


def main():
    model = torch.nn.Conv3d(1, 1, 3).cuda()  # want "CFL003 .*could not tell whether `flip\\.to\\(affine\\)` is on the GPU" "CFL001 .*the child uses CUDA \\(`\\.to\\(\\)`, line 37\\)"
    for batch in DataLoader(Scans(["a.npy", "b.npy"]), num_workers=2):
        model(batch.cuda())
    for batch in DataLoader(DeviceScans(["a.npy", "b.npy"]), num_workers=2):
        model(batch)


if __name__ == "__main__":
    main()
