import multiprocessing as mp

import torch


def child():
    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
