"""The look-alike that fails: the parent initializes CUDA and never imports
gpu_report, so the child's import runs its top level in the forked process."""
import multiprocessing as mp

import torch


def report():
    import gpu_report

    print(gpu_report.FREE)


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*the child uses CUDA \\(`torch\\.cuda\\.mem_get_info\\(\\)`, gpu_report\\.py:4\\)"
    p = mp.get_context("fork").Process(target=report)
    p.start()
    p.join()
