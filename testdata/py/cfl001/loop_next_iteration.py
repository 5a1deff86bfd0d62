"""The pool is forked first, the GPU touched after: fine once, broken on the
loop's next iteration."""
import multiprocessing as mp

import torch


def work(x):
    return torch.tensor([x], device="cuda").item()


if __name__ == "__main__":
    results = []
    for step in range(3):
        with mp.get_context("fork").Pool(2) as pool:
            results += pool.map(work, range(4))
        torch.cuda.synchronize()  # want "CFL001 .*on the loop's next iteration"
    print(results)
