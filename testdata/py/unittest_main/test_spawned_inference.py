"""Run as `python test_spawned_inference.py`: the main guard chooses "spawn"
before unittest.main() runs the test, so its ranks are spawned, not forked
from the parent that initialized CUDA in the test."""
import unittest

import torch

from infer_helpers import run_inference


class TestInference(unittest.TestCase):
    def setUp(self):
        self.world_size = 2

    def test_two_ranks(self):
        torch.cuda.init()
        run_inference(self.world_size)


if __name__ == "__main__":
    torch.multiprocessing.set_start_method("spawn")
    unittest.main(argv=["first-arg-is-ignored"])
