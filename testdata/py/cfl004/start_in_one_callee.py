"""The script picks its tokenizer at the top level: a pool of spawn workers
for a large corpus, a plain loop for a small one. A worker re-importing the
script makes the pool only when it picks the parallel tokenizer; where it
picks the serial one it goes on to the GPU code and initializes CUDA
again."""
import multiprocessing as mp

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


def parallel_tokenize(lines):
    with mp.get_context("spawn").Pool(4) as pool:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
        return pool.map(tokenize, lines)


def serial_tokenize(lines):
    return [tokenize(line) for line in lines]


lines = open("corpus.txt").read().splitlines()
preprocess = parallel_tokenize if len(lines) > 10_000 else serial_tokenize
tokens = preprocess(lines)

model = torch.nn.Embedding(64, 16).cuda()  # want "CFL004 .*every child started at `mp\\.get_context\\(\"spawn\"\\)\\.Pool\\(4\\)`"
for seq in tokens:
    model(torch.tensor(seq, device="cuda")).sum().backward()
