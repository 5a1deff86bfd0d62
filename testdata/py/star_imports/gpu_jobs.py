"""Helpers scripts take with `from gpu_jobs import *`. No __all__: the star
import binds every public name, the modules it imports included."""
import multiprocessing as mp

import torch


def gpu_square(x):
    return (torch.tensor([x], device="cuda") ** 2).item()


def fork_map(fn, items):
    with mp.get_context("fork").Pool(2) as pool:
        return pool.map(fn, items)


def _fork_each(fn, items):
    with mp.get_context("fork").Pool(2) as pool:
        return pool.map(fn, items)
