"""The shapes a default-start process takes, each after CUDA was initialized:
a Pool imported by name, a ProcessPoolExecutor, and a Process of
torch.multiprocessing. Each is forked up to Python 3.13; the message says how
to give it the "spawn" start method. The script runs one of them, chosen on
its command line."""
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import Pool

import torch
import torch.multiprocessing as tmp


def embed(i):
    return torch.ones(2, device="cuda").sum().item() + i


def pool_by_name():
    torch.cuda.init()  # want "CFL001 .*forks at `Pool\\(2\\)`.*\\(`multiprocessing\\.get_context\\(\"spawn\"\\)\\.Pool\\(\\.\\.\\.\\)`\\)"
    with Pool(2) as pool:
        return pool.map(embed, range(4))


def executor():
    torch.cuda.set_device(0)  # want "CFL001 .*ProcessPoolExecutor workers.*\\(`ProcessPoolExecutor\\(\\.\\.\\., mp_context=multiprocessing\\.get_context\\(\"spawn\"\\)\\)`\\)"
    with ProcessPoolExecutor(2) as ex:
        return list(ex.map(embed, range(4)))


def process():
    x = torch.zeros(1).cuda()  # want "CFL001 .*a Process, the default \"fork\" start method.*\\(`multiprocessing\\.get_context\\(\"spawn\"\\)\\.Process\\(\\.\\.\\.\\)`\\)"
    p = tmp.Process(target=embed, args=(1,))
    p.start()
    p.join()
    return x


if __name__ == "__main__":
    if sys.argv[1] == "pool":
        pool_by_name()
    elif sys.argv[1] == "executor":
        executor()
    else:
        process()
