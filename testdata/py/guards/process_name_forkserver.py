"""`current_process().name == "MainProcess"` does not keep code out of the
forkserver: the server process is itself named MainProcess when it imports the
main module (on the versions where it does), so it initializes CUDA and every
child inherits it. Older forkservers' children import the module themselves,
under their own names, and skip it."""
import multiprocessing as mp

import torch


def scale(x):
    return (torch.ones(2, device="cuda") * x).sum().item()


if mp.current_process().name == "MainProcess":
    weights = torch.randn(4, device="cuda")  # want "CFL002 .*runs under `if mp\\.current_process\\(\\)\\.name == \"MainProcess\":` \\(line 15\\), which does not keep it out of the forkserver"

if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(scale, range(4)))
