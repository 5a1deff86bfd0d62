"""pool_api's __all__ exports start_pool, which forks a pool."""
import torch

from pool_api import *


def double(x):
    return 2 * x


if __name__ == "__main__":
    torch.cuda.is_available()  # want "CFL003 .*forks at .*\\(pool_api\\.py:9: Pool workers"
    print(start_pool(double, [1, 2]))
