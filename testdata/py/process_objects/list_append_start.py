"""Processes kept in a list and started in a loop (DeepSpeed's data analyzer
shape): each is a fork of the CUDA-initialized parent, and the workers use
the GPU."""
from multiprocessing import Process

import torch


def shard(rank):
    torch.cuda.set_device(rank)
    return torch.ones(1, device="cuda").item()


def run(num_threads):
    model = torch.nn.Linear(4, 4).cuda()  # want "CFL001 .*at `p\\[t\\]\\.start\\(\\)`.*a Process.*uses CUDA \\(`torch\\.cuda\\.set_device\\(\\)`, line 10\\)"
    p = []
    for t in range(num_threads):
        p.append(Process(target=shard, args=(t,)))
        p[t].start()
    for t in range(num_threads):
        p[t].join()
    return model


if __name__ == "__main__":
    run(2)
