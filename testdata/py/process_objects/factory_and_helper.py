"""A factory returns the process and a helper starts what it is handed: the
device the factory was called with reaches the child."""
import multiprocessing as mp

import torch


def serve(device):
    torch.empty(1, device=device)


def make(device):
    return mp.Process(target=serve, args=(device,))


def start_all(procs):
    for p in procs:
        p.start()


if __name__ == "__main__":
    torch.cuda.is_available()  # want "CFL001 .*at `p\\.start\\(\\)`.*a Process.*uses CUDA \\(`torch\\.empty\\(\\)`, line 9\\)" "CFL003 .*at `p\\.start\\(\\)`.*a Process.*the children never touch CUDA"
    start_all([make("cuda:0"), make("cuda:1")])
    start_all([make("cpu")])
