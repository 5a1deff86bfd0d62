"""A model loaded onto the GPU at import time, served by a forkserver pool."""
import multiprocessing as mp

import torch

model = torch.nn.Linear(4, 4).cuda()  # want "CFL002 .*while the main module is imported,.*Python 3\\.13\\.8\\+, 3\\.14\\.1\\+, 3\\.15 on Linux" "CFL004 .*Python 3\\.11–3\\.13\\.7, 3\\.14\\.0 on Linux"


def infer(x):
    return model(torch.tensor(x, device="cuda")).sum().item()


if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(infer, [[1.0] * 4] * 4))
