"""accelerate's is_cuda_available(): is_available() inside a block that sets
PYTORCH_NVML_BASED_CUDA_CHECK=1 asks NVML and leaves the driver alone."""
import multiprocessing as mp
from unittest import mock
import os

import torch
from accelerate.utils import patch_environment


def child():
    torch.ones(1, device="cuda")


def is_cuda_available():
    with patch_environment(PYTORCH_NVML_BASED_CUDA_CHECK="1"):
        return torch.cuda.is_available()


def also_available():
    with mock.patch.dict(os.environ, {"PYTORCH_NVML_BASED_CUDA_CHECK": "1"}):
        return torch.cuda.is_available()


if __name__ == "__main__":
    if is_cuda_available() and also_available():
        p = mp.get_context("fork").Process(target=child)
        p.start()
        p.join()
