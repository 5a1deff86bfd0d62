"""One initialization before two forks: the first child runs code from an
installed package the analysis cannot read (a warning), the second
allocates on the GPU (an error). The unseen child does not hide the one
that certainly fails."""
import multiprocessing as mp

import torch
from trainer_lib import run_worker


def embed(i):
    return torch.ones(2, device="cuda").sum().item() + i


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 .*`run_worker`, whose code could not be seen" "CFL001 .*the child uses CUDA \\(`torch\\.ones\\(\\)`, line 12\\)"
    ctx = mp.get_context("fork")
    p = ctx.Process(target=run_worker)
    p.start()
    p.join()
    with ctx.Pool(2) as pool:
        print(pool.map(embed, range(2)))
