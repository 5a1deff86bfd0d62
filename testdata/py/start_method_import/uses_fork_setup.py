"""Importing the setup module chose fork, on every version."""
import multiprocessing as mp

import torch

import mp_fork_setup  # noqa: F401


def embed(values):
    return torch.tensor(values, device="cuda").sum().item()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*`mp\\.Pool\\(2\\)` \\(line 15: Pool workers, the \"fork\" start method\\).*Python 3\\.11–3\\.15 on Linux"
    with mp.Pool(2) as pool:
        print(pool.map(embed, [[1.0], [2.0]]))
