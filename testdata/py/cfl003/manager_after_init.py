"""A Manager server process forked after CUDA init never touches CUDA."""
import multiprocessing as mp

import torch

if __name__ == "__main__":
    mp.set_start_method("fork")
    torch.zeros(1).cuda()  # want "CFL003 .*a Manager process"
    with mp.Manager() as manager:
        shared = manager.dict()
        shared["ok"] = True
