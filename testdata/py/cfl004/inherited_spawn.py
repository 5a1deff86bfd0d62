"""The corpus is tokenized by a pool at the top level, with the default start
method, and the training processes are spawned under the main guard after
set_start_method("spawn"). A spawned trainer starts with its parent's start
method, spawn, and re-imports this script: its own pool there raises while
it bootstraps, before the embedding table below is built on the GPU."""
import multiprocessing as mp

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


lines = open("corpus.txt").read().splitlines()
with mp.Pool(4) as pool:  # want "CFL005 .*the default \"forkserver\" start method.*Python 3\\.14–3\\.15 on Linux"
    tokens = pool.map(tokenize, lines)

embedding = torch.nn.Embedding(64, 16).cuda()


def train(rank):
    torch.cuda.set_device(rank)
    model = torch.nn.Linear(16, 16).cuda()
    for seq in tokens:
        model(embedding(torch.tensor(seq, device="cuda"))).sum().backward()


if __name__ == "__main__":
    mp.set_start_method("spawn")
    procs = [mp.Process(target=train, args=(rank,)) for rank in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
