"""The pool of spawn workers is tried, with a serial fallback. A worker
re-importing this script raises at the pool, catches the error, tokenizes
serially and goes on to the GPU code: it initializes CUDA again."""
import multiprocessing as mp

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


lines = open("corpus.txt").read().splitlines()
try:
    with mp.get_context("spawn").Pool(4) as pool:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
        tokens = pool.map(tokenize, lines)
except RuntimeError:
    tokens = [tokenize(line) for line in lines]

model = torch.nn.Embedding(64, 16).cuda()  # want "CFL004 .*every child started at `mp\\.get_context\\(\"spawn\"\\)\\.Pool\\(4\\)`"
for seq in tokens:
    model(torch.tensor(seq, device="cuda")).sum().backward()
