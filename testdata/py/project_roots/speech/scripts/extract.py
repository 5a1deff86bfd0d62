"""Extracts features: each recording is read by a forked process."""
import multiprocessing as mp
import sys

import torch

from speech import features  # want "CFL001 .*`speech\\.features`.*features\\.py:4"


def read_audio(path):
    samples = torch.zeros(16000, device="cuda")
    print(path, features.mel(samples))


if __name__ == "__main__":
    print("mel bank", features.MEL_BANK.shape)
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=read_audio, args=(p,)) for p in sys.argv[1:]]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
