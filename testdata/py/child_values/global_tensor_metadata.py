"""Workers that read only the shape of a table the parent built on the GPU:
a tensor's size lives on the host, so calling size() on the inherited
tensor touches no GPU; a worker that sums it does."""
import multiprocessing as mp

import torch


def plan_chunks(n_workers):
    rows = table.size(0)
    return [(i * rows // n_workers, (i + 1) * rows // n_workers) for i in range(n_workers)]


def checksum(bounds):
    start, stop = bounds
    return table[start:stop].sum().item()


if __name__ == "__main__":
    table = torch.randn(1024, 16, device="cuda")  # want "CFL003 .*`ctx\\.Pool\\(1\\)`.*never touch CUDA" "CFL001 `torch\\.randn\\(\\)`.*`ctx\\.Pool\\(4\\)`.*uses CUDA \\(`table`, line 16\\)"
    ctx = mp.get_context("fork")
    with ctx.Pool(1) as planner:
        chunks = planner.apply(plan_chunks, (4,))
    with ctx.Pool(4) as pool:
        print(pool.map(checksum, chunks))
