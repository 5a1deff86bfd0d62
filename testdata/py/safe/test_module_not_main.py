"""A test module: pytest imports it, it is never __main__. The import-time
is_available() does not rerun in spawn children of the test's pool, because
they re-import pytest's main module, not this one."""
import multiprocessing as mp
import unittest

import torch


def double(x):
    return 2 * x


@unittest.skipIf(not torch.cuda.is_available(), "needs a GPU")
class PoolTest(unittest.TestCase):
    def test_pool(self):
        with mp.get_context("spawn").Pool(2) as pool:
            self.assertEqual(pool.map(double, [1, 2]), [2, 4])
