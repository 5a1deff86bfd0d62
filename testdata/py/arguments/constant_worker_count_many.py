"""The look-alike that forks: the same helper called with 4 workers."""
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from types import SimpleNamespace

import torch


def extract(tmp_dir, shard):
    return f"{tmp_dir}/{shard}"


def run_parallel(do_work, chunks, num_workers):
    if num_workers > 1:
        with ProcessPoolExecutor(max_workers=num_workers) as ex:
            return [ex.submit(do_work, c).result() for c in chunks]
    return [do_work(c) for c in chunks]


def convert(args):
    return run_parallel(partial(extract, "/tmp/x"), range(4), args.num_extract_workers)


def test_convert():
    weights = torch.zeros(4).pin_memory()  # want "CFL003 .*ProcessPoolExecutor workers.*the children never touch CUDA"
    args = SimpleNamespace(num_extract_workers=4)
    assert convert(args) and weights is not None
