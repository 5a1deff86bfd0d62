"""Spawn where the platform has a choice: on Windows spawn is the only
method, elsewhere the script asks for it. On Linux the else arm runs, so
the pool never forks after is_available(); its spawned workers re-import
this module and initialize CUDA again."""
import multiprocessing as mp
import os

import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # want "CFL004 .*the \"spawn\" start method"


def square(x):
    return x * x


def main():
    if os.name == "nt":
        print("spawn is the only start method on Windows")
    else:
        mp.set_start_method("spawn")
    with mp.Pool(2) as pool:
        print(pool.map(square, range(4)), DEVICE)


if __name__ == "__main__":
    main()
