"""Safe look-alike: `{gpu:=3}` in an f-string is a width-3 field with `=`
alignment, not an assignment (an assignment expression in a replacement
field must be parenthesized). gpu stays 0, so the parent never touches
CUDA before it forks."""
import multiprocessing as mp

import torch

gpu = 0


def work(i):
    return i * 2


if __name__ == "__main__":
    print(f"gpu index {gpu:=3} {gpu:=^{8}}")
    if gpu:
        torch.cuda.set_device(gpu)
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(work, range(4)))
