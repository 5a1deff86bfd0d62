"""A module that names its public API: `from pool_api import *` binds
start_pool, and not fork_map."""
import multiprocessing as mp

__all__ = ["start_pool"]


def start_pool(fn, items):
    with mp.get_context("fork").Pool(2) as pool:
        return pool.map(fn, items)


def fork_map(fn, items):
    with mp.get_context("fork").Pool(2) as pool:
        return pool.map(fn, items)
