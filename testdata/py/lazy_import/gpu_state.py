"""A local module that initializes CUDA at its top level, imported lazily by
local_module.py."""
import torch

TABLE = torch.arange(16, device="cuda")  # want "CFL001 .*Python 3\\.15 on Linux"
