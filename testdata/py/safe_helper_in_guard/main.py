"""Fork matrix: "forkserver: main imports helper inside guard only" — ok."""
import multiprocessing as mp

import torch


def child():
    assert torch.zeros(2, device="cuda").sum().item() == 0


if __name__ == "__main__":
    import helper_init

    p = mp.get_context("forkserver").Process(target=child)
    p.start()
    p.join()
    print(helper_init.X)
