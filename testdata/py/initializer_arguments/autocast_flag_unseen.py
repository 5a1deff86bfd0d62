"""enabled= comes from an object the model cannot read: that proves no
initialization in the parent, so no error is reported for it."""
import multiprocessing as mp
import sys

import torch


def work(i):
    return torch.ones(1, device="cuda").item() + i


def main(cfg):
    with torch.autocast("cuda", enabled=cfg.use_amp):
        pass
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))


if __name__ == "__main__":
    main(sys.modules[__name__])
