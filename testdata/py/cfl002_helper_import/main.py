import multiprocessing as mp

import torch

import helper_init


def child():
    assert torch.zeros(2, device="cuda").sum().item() == 0


if __name__ == "__main__":
    p = mp.get_context("forkserver").Process(target=child)
    p.start()
    p.join()
    print(helper_init.X)
