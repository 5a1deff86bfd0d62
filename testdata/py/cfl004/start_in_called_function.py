"""The script calls its preprocessing at the top level, and the preprocessing
makes a pool of spawn workers. A worker re-importing the script calls it
too: the pool raises while the worker bootstraps, the error leaves the
function and the import, and the GPU code after the call never runs there."""
import multiprocessing as mp

import torch


def tokenize(line):
    return [ord(c) % 64 for c in line]


def preprocess(path):
    lines = open(path).read().splitlines()
    with mp.get_context("spawn").Pool(4) as pool:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
        return pool.map(tokenize, lines)


tokens = preprocess("corpus.txt")
model = torch.nn.Embedding(64, 16).cuda()
for seq in tokens:
    model(torch.tensor(seq, device="cuda")).sum().backward()
