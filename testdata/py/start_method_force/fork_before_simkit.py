"""Chooses "fork" before importing simkit, whose own set_start_method("spawn")
then raises and is caught: the pool forks the initialized parent."""
import multiprocessing

multiprocessing.set_start_method("fork")

import torch  # noqa: E402

import simkit  # noqa: E402

if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*`multiprocessing\\.Pool\\(2\\)` \\(line 13: Pool workers, the \"fork\" start method\\)"
    with multiprocessing.Pool(2) as pool:
        print(pool.map(simkit.rollout, [0, 1]))
