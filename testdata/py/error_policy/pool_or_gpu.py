"""Each row is scored by a process pool when there are several workers, and
on the GPU otherwise: the parent initializes CUDA only on the path that
never forks, and the workers' own GPU use is fine. No finding."""
import concurrent.futures
import sys

import torch


def embed(x):
    return torch.ones(4, device="cuda").sum().item() + x


def score(rows, workers):
    out = []
    for row in rows:
        if workers > 1:
            with concurrent.futures.ProcessPoolExecutor(workers) as pool:
                out.extend(pool.map(embed, row))
        else:
            out.append(torch.tensor(row, device="cuda").abs().sum().item())
    return out


if __name__ == "__main__":
    print(score([[1.0, -2.0], [3.0]], int(sys.argv[1])))
