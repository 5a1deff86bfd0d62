"""Initializes CUDA when imported."""
import torch

torch.cuda.init()  # want "CFL003 .*forks at .*\\(submodule_hazard\\.py:13: Pool workers"
