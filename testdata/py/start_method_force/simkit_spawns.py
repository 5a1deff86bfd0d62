"""Chooses no start method: importing simkit sets "spawn", so the pool does not
fork the initialized parent."""
import multiprocessing

import torch

import simkit

if __name__ == "__main__":
    torch.cuda.init()
    with multiprocessing.Pool(2) as pool:
        print(pool.map(simkit.rollout, [0, 1]))
