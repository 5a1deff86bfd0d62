"""Imported by the forkserver to warm up: this initializes CUDA in the server."""
import torch

torch.zeros(1, device="cuda")  # want "CFL002 .*`gpu_warmup` is imported.*set_forkserver_preload.*Python 3\\.11–3\\.15 on Linux"
