"""A training script that prints its banner and a table with format
specifiers (`=` fill and alignment, nested widths, `=` debugging
specifiers) between initializing CUDA and forking the data workers: the
fork is reported, and nothing in the f-strings is a syntax error."""
import multiprocessing as mp

import torch

title, width, precision = "train", 40, 3


def load(i):
    return [i] * 4


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003"
    print(f"{title:=^{width}}")
    print(f"{'epoch':<{width // 2}}{'loss':>{width // 2}}")
    loss = 0.25
    print(f"{loss=:>10.{precision}f} {loss = !r:^20} {loss:=+12,.4f}")
    print(f"{title!s:{'='}^{width}} {{not a field}}")
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(load, range(4)))
