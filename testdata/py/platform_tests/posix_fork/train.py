"""Workers forked from a parent that asked is_available() at import time:
with fork the workers re-import nothing, so no child initializes CUDA
again (trainkit/env.py sets fork on Linux)."""
import torch
from torch.utils.data import DataLoader

from trainkit import env

HAVE_GPU = torch.cuda.is_available()  # want "CFL003 .*the \"fork\" start method.*Python 3\\.11–3\\.15 on Linux"


def main():
    loader = DataLoader(list(range(8)), num_workers=env.NUM_WORKERS)
    for batch in loader:
        print(batch, HAVE_GPU)


if __name__ == "__main__":
    main()
