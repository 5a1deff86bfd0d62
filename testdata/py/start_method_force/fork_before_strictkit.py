"""Chooses "fork", but strictkit replaces it with force=True when imported: the
pool spawns its workers."""
import multiprocessing

multiprocessing.set_start_method("fork")

import torch  # noqa: E402

import strictkit  # noqa: E402

if __name__ == "__main__":
    torch.cuda.init()
    with multiprocessing.Pool(2) as pool:
        print(pool.map(strictkit.rollout, [0, 1]))
