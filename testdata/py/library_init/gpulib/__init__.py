"""A library that probes the GPU when it is imported (as torch_geometric's
typing.py does with torch.__config__.show())."""
from gpulib._probe import HAS_CUDA

__all__ = ["HAS_CUDA"]
