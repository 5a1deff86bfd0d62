"""torch.set_default_device("cuda") makes tensors made without a device CUDA
tensors, in the parent and in the children it forks: the same CPU-looking
worker code now allocates on the GPU."""
import multiprocessing as mp

import torch


def work(i):
    return torch.tensor([i, i + 1]).float().sum().item()


if __name__ == "__main__":
    torch.set_default_device("cuda")
    warm = torch.ones(1)  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.tensor\\(\\)`, line 10\\)"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(4)))
