"""The look-alike that fails: the same loop, but the dataset calls the same
methods on a tensor the parent put on the GPU, which the forked workers
inherit. The workers die with "Cannot re-initialize CUDA in forked
subprocess". From 3.14 the loop itself fails: the forkserver (or each
worker, on 3.14.0) imports this script and starts the loader's workers
while it bootstraps, which raises; the forkserver dies before it forks any
worker, so no worker inherits its CUDA (no CFL002)."""
import torch
from torch.utils.data import DataLoader, Dataset

TABLE = torch.arange(128, device="cuda").float()  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`TABLE`, line 19\\)" "CFL004"


class Lookup(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        x = TABLE[i : i + 2].float()
        return x.sum().item()


for batch in DataLoader(Lookup(), batch_size=8, num_workers=2):  # want "CFL005"
    print(batch)
