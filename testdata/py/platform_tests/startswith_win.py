"""Windows has no fork; everywhere else the loader workers are forked
before the model touches the GPU, and nothing at import time initializes
CUDA."""
import multiprocessing as mp
import platform
import sys

import torch
from torch.utils.data import DataLoader

if sys.platform.startswith("win") or platform.system() == "Windows":
    NUM_WORKERS = 0
else:
    mp.set_start_method("fork", force=True)
    NUM_WORKERS = 4

IS_WINDOWS = sys.platform in ("win32", "cygwin")


def main():
    loader = DataLoader(list(range(8)), num_workers=NUM_WORKERS, persistent_workers=not IS_WINDOWS)
    model = torch.nn.Linear(1, 1).cuda()
    for batch in loader:
        print(model(batch.float().unsqueeze(1)))


if __name__ == "__main__":
    torch.cuda.is_available()  # want "CFL003 .*the \"fork\" start method.*Python 3\\.11–3\\.15 on Linux"
    main()
