"""Fails: the first simulator runs with one worker, inline on the GPU, and
the second forks four workers that allocate on the GPU after it."""
import concurrent.futures

import torch


class Simulator:
    def __init__(self, num_workers):
        self.num_workers = num_workers

    def _generate(self, i):
        return torch.zeros(16).to("cuda").sum().item() + i  # want "CFL001 .*ProcessPoolExecutor workers.*the child uses CUDA"

    def generate(self, n):
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.num_workers)
        results = []
        for i in range(n):
            if self.num_workers > 1:
                results.append(pool.submit(self._generate, i).result())
            else:
                results.append(self._generate(i))
        pool.shutdown()
        return results


if __name__ == "__main__":
    print(Simulator(1).generate(8))
    print(Simulator(4).generate(8))
