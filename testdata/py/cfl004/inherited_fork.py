"""The corpus is tokenized by a pool at the top level, with the default start
method; the program chooses fork for it and spawns its GPU trainers through
a spawn context. A spawned trainer starts with its parent's method, fork,
and re-imports this script: its pool forks there without complaint, and it
goes on to build the embedding table on the GPU again."""
import multiprocessing as mp

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


lines = open("corpus.txt").read().splitlines()
with mp.Pool(4) as pool:  # want "CFL005 .*the default \"forkserver\" start method.*Python 3\\.14–3\\.15 on Linux"
    tokens = pool.map(tokenize, lines)

embedding = torch.nn.Embedding(64, 16).cuda()  # want "CFL004 .*every child started at `p\\.start\\(\\)` .*Python 3\\.11–3\\.15 on Linux"


def train(rank):
    torch.cuda.set_device(rank)
    model = torch.nn.Linear(16, 16).cuda()
    for seq in tokens:
        model(embedding(torch.tensor(seq, device="cuda"))).sum().backward()


if __name__ == "__main__":
    mp.set_start_method("fork")
    spawn = mp.get_context("spawn")
    procs = [spawn.Process(target=train, args=(rank,)) for rank in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
