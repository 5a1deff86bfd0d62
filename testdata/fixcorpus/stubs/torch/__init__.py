"""A CPU stand-in for the parts of PyTorch that the fix corpus uses.

The scripts in testdata/fixcorpus run against it (PYTHONPATH pointing at
testdata/fixcorpus/stubs) before and after `cudaforklint check --fix
--unsafe-fixes`, so that a fix that breaks a program (a NameError in a
worker, a file CPython cannot compile) shows up as a different output or a
failed run. Tensors are small lists of floats; "cuda" is only a device name;
DataLoader workers and torch.multiprocessing are real multiprocessing.
Nothing here models CUDA's fork hazard: the corpus checks that fixes keep
programs working, not that they remove the hazard (the rules' tests do).
"""
from torch._tensor import (
    Tensor,
    arange,
    device,
    float32,
    full,
    int64,
    is_tensor,
    manual_seed,
    no_grad,
    ones,
    randn,
    stack,
    tensor,
    zeros,
)
from torch import cuda, multiprocessing, nn, utils

__version__ = "0.0.0+cpu-stand-in"
