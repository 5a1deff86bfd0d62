"""The forkserver imports this module (3.13.8+, 3.14) and so runs cuInit;
its children only split strings: they work, but inherit the initialized
driver."""
import multiprocessing as mp

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"  # want "CFL006 .*the children never touch CUDA, so this works on Python 3\\.13\\.8\\+, 3\\.14\\.1\\+, 3\\.15 on Linux, but any CUDA use in the children would fail" "CFL004 .*3\\.11–3\\.13\\.7, 3\\.14\\.0"


def tokenize(line):
    return line.split()


if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(tokenize, ["a b", "c d"]), DEVICE)
