import multiprocessing as mp

import torch


def work():
    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    ctx = mp.get_context("spawn")
    p = ctx.Process(target=work)
    p.start()
    p.join()
