"""Helpers that scripts elsewhere in a project import. Run from here, the
import of speechkit's dropped helper classes fails; a script in another
directory may find a module of that name first on its own sys.path, so the
functions it calls are checked as ever."""
import multiprocessing as mp

import torch

from speechkit import Container


def square(x):
    return x * x


def warm_up(n):
    torch.cuda.init()  # want "CFL003"
    with mp.get_context("fork").Pool(2) as pool:
        return Container(pool.map(square, range(n)))
