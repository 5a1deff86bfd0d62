"""The GPU model is built at the top level before the pool of spawn workers
is made there. Each worker re-imports this script and runs the top level
again: it builds the model on the GPU, initializing CUDA, and only then
reaches the pool, where it raises. Both are hazards."""
import multiprocessing as mp

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


model = torch.nn.Embedding(64, 16).cuda()  # want "CFL004 .*every child started at `mp\\.get_context\\(\"spawn\"\\)\\.Pool\\(4\\)`"

lines = open("corpus.txt").read().splitlines()
with mp.get_context("spawn").Pool(4) as pool:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
    tokens = pool.map(tokenize, lines)

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for seq in tokens:
    loss = model(torch.tensor(seq, device="cuda")).sum()
    loss.backward()
    optimizer.step()
