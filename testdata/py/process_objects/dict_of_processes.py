"""Processes kept in a dict and started through .values(): CPU-only
children after the parent's init, so benign (CFL003)."""
import multiprocessing as mp

import torch


def count(path):
    with open(__file__) as f:
        return path, sum(1 for _ in f)


if __name__ == "__main__":
    print(torch.cuda.device_count(), torch.cuda.is_available())  # want "CFL003 .*at `q\\.start\\(\\)`.*a Process.*the children never touch CUDA"
    procs = {name: mp.Process(target=count, args=(name,)) for name in ["a.txt", "b.txt"]}
    for q in procs.values():
        q.start()
    for q in procs.values():
        q.join()
