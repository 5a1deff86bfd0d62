"""The look-alike that fails: the number of workers is recomputed on every
pass, so an inline pass on the GPU can come before a pass that forks
workers which allocate on the GPU."""
import concurrent.futures

import torch


def embed(i):
    return torch.ones(4, device="cuda").sum().item() + i


def run(batches):
    out = []
    for batch in batches:
        workers = len(batch)
        if workers > 1:
            with concurrent.futures.ProcessPoolExecutor(workers) as pool:
                out.extend(pool.map(embed, batch))
        else:
            out.append(torch.ones(1, device="cuda").item())  # want "CFL001 .*ProcessPoolExecutor workers.*the child uses CUDA"
    return out


if __name__ == "__main__":
    print(run([[1], [1, 2]]))
