"""The pool of spawn workers tokenizes only when no cached copy exists. A
worker re-importing this script finds the cache the parent is about to
write missing or present, as it happens: where it skips the pool, it goes on
to the GPU code and initializes CUDA again. A start that may not run does
not stop the re-import."""
import multiprocessing as mp
import os

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


if not os.path.exists("tokens.pt"):
    lines = open("corpus.txt").read().splitlines()
    with mp.get_context("spawn").Pool(4) as pool:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
        torch.save(pool.map(tokenize, lines), "tokens.pt")
tokens = torch.load("tokens.pt")

model = torch.nn.Embedding(64, 16).cuda()  # want "CFL004 .*every child started at `mp\\.get_context\\(\"spawn\"\\)\\.Pool\\(4\\)`"
for seq in tokens:
    model(torch.tensor(seq, device="cuda")).sum().backward()
