"""Collected by pytest, this module's top level starts a spawn pool while pytest
imports it; its children re-import pytest's __main__, not this module, so they
do not start the pool again."""
import multiprocessing as mp


def square(x):
    return x * x


SQUARES = mp.get_context("spawn").Pool(2).map(square, range(4))


def test_squares():
    assert SQUARES == [0, 1, 4, 9]
