"""The same loss under autocast left on: building the decorator asks
torch.cuda.is_available(), which initializes the driver at import, and the
forked workers fail (measured, probes-2026-12.md)."""
import multiprocessing as mp

import torch


@torch.amp.autocast("cuda", enabled=True)  # want "CFL001 .*Pool workers, the default \"fork\" start method.*uses CUDA \\(`torch\\.ones\\(\\)`, line 15\\)" "CFL002" "CFL004"
def fp32_loss(x, y):
    return ((x.float() - y.float()) ** 2).mean()


def work(i):
    x = torch.ones(4, device="cuda") * i
    return fp32_loss(x, x).item()


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(work, range(4)))
