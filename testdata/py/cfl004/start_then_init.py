"""Tokenize with a pool of spawn workers, then train on the GPU, all at the
top level with no main guard. Each worker re-imports this script and makes
the same pool first: multiprocessing refuses to start a process while the
worker is still bootstrapping and raises, so the worker dies there and never
reaches the GPU code below. The pool is the hazard (CFL005); the GPU code
after it runs in no child (no CFL004)."""
import multiprocessing as mp

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


lines = open("corpus.txt").read().splitlines()
with mp.get_context("spawn").Pool(4) as pool:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
    tokens = pool.map(tokenize, lines)

model = torch.nn.Embedding(64, 16).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for seq in tokens:
    loss = model(torch.tensor(seq, device="cuda")).sum()
    loss.backward()
    optimizer.step()
