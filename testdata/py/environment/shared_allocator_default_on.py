"""The look-alike that fails: the pool is shared unless CUDA_SHARE_POOL=0
is set, so by default CUDA is initialized while the script is imported,
before the workers fork (or in the forkserver that forks them)."""
import multiprocessing as mp
import os

import torch

if bool(int(os.getenv("CUDA_SHARE_POOL", "1"))):
    torch.cuda.init()  # want "CFL001" "CFL002" "CFL004 .*3\\.14\\.0"
    torch.cuda.set_per_process_memory_fraction(0.5)


def train_shard(rank):
    model = torch.nn.Linear(8, 8).to(f"cuda:{rank}")
    return model(torch.ones(8, device=f"cuda:{rank}")).sum().item()


if __name__ == "__main__":
    workers = [mp.Process(target=train_shard, args=(rank,)) for rank in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
