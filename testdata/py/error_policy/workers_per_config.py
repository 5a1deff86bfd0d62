"""Two simulators built from one configuration file generate their sessions
in turn: with several workers each forks a process pool, with one each
generates inline on the GPU. Both read the same number of workers, so the
first one's inline GPU work never precedes the second one's fork; the
analysis cannot read the file, so it warns that it could not tell rather
than reporting an error."""
import concurrent.futures
import sys

import torch
import yaml


class Simulator:
    def __init__(self, cfg):
        self._params = cfg
        self.num_workers = self._params.get("num_workers", 1)

    def _generate(self, i):
        return torch.zeros(16).to("cuda").sum().item() + i  # want "CFL003 .*could not tell whether `self\\.num_workers>1` can take this arm after an earlier call"

    def generate(self, chunks):
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.num_workers)
        results = []
        for chunk in chunks:
            futures = []
            for i in chunk:
                if self.num_workers > 1:
                    futures.append(pool.submit(self._generate, i))
                else:
                    futures.append(i)
            for f in futures:
                if self.num_workers > 1:
                    results.append(f.result())
                else:
                    results.append(self._generate(f))
        pool.shutdown()
        return results

if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        config = yaml.safe_load(f)
    config["seed"] = 10
    print(Simulator(config).generate([range(8), range(8, 16)]))
    config["seed"] = 20
    print(Simulator(config).generate([range(8), range(8, 16)]))
