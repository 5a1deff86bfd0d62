"""A Manager next to real workers: the Pool's workers are the benign fork
reported; the Manager's server is not one of its places."""
import multiprocessing as mp

import torch


def count(shared, word):
    shared[word] = len(word)


if __name__ == "__main__":
    mp.set_start_method("fork")
    torch.zeros(1).cuda()  # want "CFL003 .*forks at `mp\\.Pool\\(2\\)` \\(line 17: Pool workers, the \"fork\" start method\\); the children never touch CUDA"
    with mp.Manager() as manager:
        shared = manager.dict()
        with mp.Pool(2) as pool:
            pool.starmap(count, [(shared, "a"), (shared, "bb")])
