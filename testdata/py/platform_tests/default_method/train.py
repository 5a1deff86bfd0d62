"""The same training script with the start method left at its default:
from Python 3.14 the workers start from the forkserver, which re-imports
this module, and is_available() initializes CUDA again in each."""
import torch
from torch.utils.data import DataLoader

from trainkit import env

HAVE_GPU = torch.cuda.is_available()  # want "CFL003 .*the default \"fork\" start method.*Python 3\\.11–3\\.13 on Linux" "CFL006 .*the default \"forkserver\" start method" "CFL004 .*the default \"forkserver\" start method"


def main():
    loader = DataLoader(list(range(8)), num_workers=env.NUM_WORKERS)
    for batch in loader:
        print(batch, HAVE_GPU)


if __name__ == "__main__":
    main()
