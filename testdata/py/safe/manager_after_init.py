"""A Manager server process forked after CUDA init runs only multiprocessing's
own server loop: nothing the program could change makes it touch CUDA, so it
is not reported, not even as a benign fork."""
import multiprocessing as mp

import torch

if __name__ == "__main__":
    mp.set_start_method("fork")
    torch.zeros(1).cuda()
    with mp.Manager() as manager:
        shared = manager.dict()
        shared["ok"] = True
