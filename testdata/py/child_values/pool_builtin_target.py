"""Pools that run Python builtins over their inputs: len and str run none
of the program's code and do no GPU work of their own, so workers handed
host data never touch CUDA, while str() of a tensor made on the GPU copies
it back from the device in the child."""
from multiprocessing import get_context

import torch


def summarize(names):
    with get_context("fork").Pool(2) as pool:
        return pool.map(len, names)


def render(tensors):
    with get_context("fork").Pool(2) as pool:
        return pool.map(str, tensors)


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 .*Pool workers.*the children never touch CUDA" "CFL001 .*Pool workers.*the child uses CUDA \\(CUDA objects passed to the child, line 17\\)"
    print(summarize(["train", "val"]))
    print(render([torch.ones(2, device="cuda")]))
