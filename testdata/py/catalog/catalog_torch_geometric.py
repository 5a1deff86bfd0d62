"""Catalog fixture: torch_geometric. Importing it runs cuInit (its typing module
calls torch.__config__.show(), which asks the CUDA runtime), so a worker
forked afterwards that uses CUDA fails. Evidence:
testdata/groundtruth/libraries.json (measured on an H200 with torch-geometric
2.8.0.post1)."""
import multiprocessing as mp

import torch


def use_gpu():
    torch.zeros(1, device="cuda")


def probe_import():
    # row: import torch_geometric
    # evidence: libraries "import: import torch_geometric"
    import torch_geometric  # want "CFL001"

    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()
