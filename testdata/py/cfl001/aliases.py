"""Imports under other names still resolve to the libraries' APIs."""
import multiprocessing.pool as mpp
from multiprocessing import get_context as getctx

import torch as th
from torch import cuda as tc


def job(i):
    return th.zeros(1, device="cuda").item() + i


if __name__ == "__main__":
    tc.init()  # want "CFL001 .*`torch\\.cuda\\.init\\(\\)`.*Pool workers, the \"fork\" start method"
    with mpp.Pool(2, context=getctx("fork")) as p:
        print(p.map(job, range(2)))
