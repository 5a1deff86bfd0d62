"""A nested-structure mapper (datasets' map_nested shape): it starts a Pool
only when num_proc asks for more than one process, and a num_proc left at its
default None becomes 1 first. The formatter calls it without num_proc after
the tensors went to the GPU, so the map runs serially and nothing forks."""
from multiprocessing import Pool

import torch


def parallel_map(fn, items, num_proc=None):
    if num_proc is None:
        num_proc = 1
    if num_proc > 1:
        with Pool(num_proc) as pool:
            return pool.map(fn, items)
    return [fn(item) for item in items]


class TorchFormatter:
    def __init__(self, device="cuda"):
        self.device = device

    def _tensorize(self, value):
        return torch.as_tensor(value, device=self.device)

    def format_row(self, row):
        return parallel_map(self._tensorize, list(row.values()))


def test_format_row():
    torch.cuda.init()
    formatter = TorchFormatter()
    assert len(formatter.format_row({"a": [1, 2], "b": [3]})) == 2
