"""DataLoader workers whose number comes from a flag that defaults to 0 (the
diffusers training scripts): the loader forks only when the flag is set,
and the message says so."""
import argparse

import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return torch.rand(3, 8, 8)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dataloader_num_workers", type=int, default=0)
    args = p.parse_args()
    unet = torch.nn.Conv2d(3, 3, 1).cuda()  # want "CFL003 .*DataLoader workers when `--dataloader_num_workers` > 0 \\(its default is 0\\).*the children never touch CUDA"
    loader = DataLoader(Images(), batch_size=4, num_workers=args.dataloader_num_workers)
    for batch in loader:
        unet(batch.cuda())


if __name__ == "__main__":
    main()
