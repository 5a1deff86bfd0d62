"""Fails too: the parent imports gpu_stats only when asked to print it, so
on the other path the child's import runs gpu_stats' top level after the
fork."""
import multiprocessing as mp
import sys

import torch


def summarize():
    import gpu_stats

    return gpu_stats.NAME


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*the child uses CUDA \\(`torch\\.cuda\\.get_device_name\\(\\)`, gpu_stats\\.py:4\\)"
    if "--verbose" in sys.argv:
        import gpu_stats

        print(gpu_stats.NAME)
    p = mp.get_context("fork").Process(target=summarize)
    p.start()
    p.join()
