"""A worker made by a factory reads the device from its closure."""
import multiprocessing as mp

import torch


def make_worker(device):
    def work(i):
        return torch.arange(i + 1, device=device).sum().item()

    return work


if __name__ == "__main__":
    torch.cuda.is_available()  # want "CFL001 .*a Process.*uses CUDA \\(`torch\\.arange\\(\\)`, line 9\\)"
    p = mp.Process(target=make_worker("cuda"), args=(3,))
    p.start()
    p.join()
