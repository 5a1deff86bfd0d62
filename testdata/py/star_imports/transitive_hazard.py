"""start_pool arrives through two star imports: toolkit's __init__
re-exports toolkit.launch, which re-exports pool_api's __all__."""
import torch

from toolkit import *

if __name__ == "__main__":
    torch.zeros(1).cuda()  # want "CFL003 .*forks at .*\\(pool_api\\.py:9: Pool workers"
    print(start_pool(square, [1, 2]))
