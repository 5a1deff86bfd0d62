"""A variable read without a default has no value to assume: the script
fails without it, and which arm runs is as unknown as a command-line
argument's. Both arms stay, so the pool started at import is reported."""
import multiprocessing as mp
import os


def tokenize(line):
    return line.split()


lines = open(os.environ["CORPUS"]).read().splitlines()
if os.environ["TOKENIZE_MODE"] == "pool":
    with mp.get_context("spawn").Pool(4) as pool:  # want "CFL005 .*\"spawn\" start method"
        tokens = pool.map(tokenize, lines)
else:
    tokens = [tokenize(line) for line in lines]
print(sum(len(t) for t in tokens))
