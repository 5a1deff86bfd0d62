"""pool_api's __all__ leaves its fork_map out: the star import does not
replace the serial fork_map imported before it."""
import torch

from cpu_jobs import fork_map
from pool_api import *


def double(x):
    return 2 * x


if __name__ == "__main__":
    torch.cuda.is_available()
    print(fork_map(double, [1, 2]))
