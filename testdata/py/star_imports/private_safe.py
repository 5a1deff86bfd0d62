"""A star import of a module without __all__ takes no private name:
gpu_jobs's _fork_each does not replace the serial one imported before it."""
import torch

from cpu_jobs import _fork_each
from gpu_jobs import *

if __name__ == "__main__":
    torch.cuda.is_available()
    print(_fork_each(abs, [1, -2]))
