"""The look-alike that chooses no start method: unittest.main() runs setUp and
the test under the default "fork", so the ranks fork a parent that initialized
CUDA."""
import unittest

import torch

from infer_helpers import run_inference


class InferenceCheck(unittest.TestCase):
    def setUp(self):
        torch.cuda.init()  # want "CFL001 .*a Process, the default \"fork\" start method"

    def test_two_ranks(self):
        run_inference(2)


if __name__ == "__main__":
    unittest.main()
