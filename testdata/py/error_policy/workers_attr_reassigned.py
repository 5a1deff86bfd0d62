"""Fails: a pass that ran inline on the GPU grows the pool size it tests, so
the next pass forks workers after the initialization: the arms of
`self.num_workers > 1` meet across passes."""
import concurrent.futures
import sys

import torch


def embed(i):
    return torch.ones(4, device="cuda").sum().item() + i


class Runner:
    def __init__(self, num_workers):
        self.num_workers = num_workers

    def grow(self):
        self.num_workers += 2

    def run(self, n):
        out = []
        for i in range(n):
            if self.num_workers > 1:
                with concurrent.futures.ProcessPoolExecutor(self.num_workers) as pool:
                    out.extend(pool.map(embed, range(i)))
            else:
                out.append(torch.ones(1, device="cuda").item())  # want "CFL001 .*ProcessPoolExecutor workers.*the child uses CUDA"
                self.grow()
        return out


if __name__ == "__main__":
    print(Runner(int(sys.argv[1])).run(4))
