"""CUDA initialized at the top level, re-run by every spawn child; the
workers read nothing it binds, so it moves under the main guard."""
# fixcorpus: CFL004 unsafe
import multiprocessing as mp

import torch

torch.cuda.init()
report_every = 2


def work(i):
    return torch.tensor([float(i)], device="cuda").item() * 2


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        results = pool.map(work, range(4))
    for i in range(0, len(results), report_every):
        print(results[i:i + report_every])
