"""The platform test chooses fork on Linux: the pool forks after CUDA was
initialized in the parent."""
import multiprocessing as mp
import os

import torch


def square(x):
    return (torch.ones(1, device="cuda") * x).item()


def main():
    if os.name == "nt":
        mp.set_start_method("spawn")
    else:
        mp.set_start_method("fork")
    torch.cuda.init()  # want "CFL001 .*the \"fork\" start method.*Python 3\\.11–3\\.15 on Linux"
    with mp.Pool(2) as pool:
        print(pool.map(square, range(4)))


if __name__ == "__main__":
    main()
