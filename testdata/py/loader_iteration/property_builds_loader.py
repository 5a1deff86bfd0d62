"""Properties that build a DataLoader when read (functools.cached_property,
and the older `name = property(getter)`), and one that initializes CUDA:
what the getter does happens at the read. The functions reading them are
called by nothing here; the read of the property is their only way to a
start, which must not keep them from being analyzed."""
import functools
from multiprocessing import Pool

import torch
from torch.utils.data import DataLoader, TensorDataset


class EvalSet:
    @functools.cached_property
    def eval_batches(self):
        return DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=4)

    def _holdout_batches(self):
        return DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=8, num_workers=2)

    holdout_batches = property(_holdout_batches)


def evaluate_cached():
    torch.cuda.init()  # want "CFL003 .*forks at `EvalSet\\(\\).eval_batches` \\(line 26: DataLoader workers"
    for (x,) in EvalSet().eval_batches:
        print(x)


def evaluate_holdout():
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `holdout` \\(line 33: DataLoader workers"
    holdout = EvalSet().holdout_batches
    for (x,) in holdout:
        model(x.cuda())


class Rank:
    def __init__(self, rank):
        self.rank = rank

    @property
    def gpu(self):
        torch.cuda.set_device(self.rank)  # want "CFL003 .*forks at `Pool\\(2\\)`"
        return torch.device("cuda", self.rank)


def square(n):
    return n * n


def run_on_rank():
    device = Rank(0).gpu
    with Pool(2) as pool:
        print(pool.map(square, range(4)), device)
