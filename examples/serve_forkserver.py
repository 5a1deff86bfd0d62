"""A request handler pool under the forkserver, with the GPU picked at import time.

CFL002: `torch.cuda.set_device(0)` runs at the top level, outside the main guard. The
forkserver imports the main module (Python 3.13.8+, 3.14.1+), so it initializes CUDA
there, and every worker it forks inherits a CUDA context it cannot use.
"""
import multiprocessing as mp

import torch

torch.cuda.set_device(0)


def handle(request):
    x = torch.tensor(request, device="cuda")
    return (x * 2).tolist()


if __name__ == "__main__":
    ctx = mp.get_context("forkserver")
    with ctx.Pool(2) as pool:
        print(pool.map(handle, [[1.0, 2.0], [3.0]]))
