"""The look-alike that forks: the same mapper asked for four processes, after
CUDA was initialized; each worker allocates on the GPU."""
from multiprocessing import Pool

import torch


def parallel_map(fn, items, num_proc=None):
    if num_proc is None:
        num_proc = 1
    if num_proc > 1:
        with Pool(num_proc) as pool:
            return pool.map(fn, items)
    return [fn(item) for item in items]


def to_gpu(value):
    return torch.as_tensor(value, device="cuda")


def test_format_rows():
    torch.cuda.init()  # want "CFL001 .*forks at `Pool\\(num_proc\\)`.*the child uses CUDA \\(`torch\\.as_tensor\\(\\)`, line 18\\)"
    assert len(parallel_map(to_gpu, [[1, 2], [3]], num_proc=4)) == 2
