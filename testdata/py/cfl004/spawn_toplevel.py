"""Top-level GPU tensors in a spawn program: every child builds them again."""
import multiprocessing as mp

import torch

LOOKUP = torch.arange(1000, device="cuda")  # want "CFL004 .*every child started at `p\\.start\\(\\)` .*\"spawn\".*Python 3\\.11–3\\.15 on Linux"


def worker(i):
    print(i, torch.cuda.device_count())


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=worker, args=(i,)) for i in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
