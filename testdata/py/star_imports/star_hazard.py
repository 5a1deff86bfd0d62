"""Everything comes from `from gpu_jobs import *`: torch, the pool helper
and the worker, which uses CUDA in the forked child."""
from gpu_jobs import *

if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*forks at .*\\(gpu_jobs\\.py:13: .*the child uses CUDA \\(`torch\\.tensor\\(\\)`, gpu_jobs\\.py:9\\)"
    print(fork_map(gpu_square, [1, 2]))
