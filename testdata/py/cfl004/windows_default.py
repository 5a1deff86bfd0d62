# checktest: platform=windows
"""On Windows the default start method is spawn."""
import multiprocessing as mp

import torch

torch.cuda.init()  # want "CFL004 .*the default \"spawn\" start method.*Python 3\\.11–3\\.15 on Windows"


def work(x):
    return x + 1


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(work, range(3)))
