"""A training script shares one GPU memory pool with its data workers only
when CUDA_SHARE_POOL=1 is set; by default (the "0" it reads when the
variable is unset) nothing touches CUDA at import. The opted-in arm is no
link of an error: no finding."""
import multiprocessing as mp
import os

import torch

SHARE_POOL = bool(int(os.getenv("CUDA_SHARE_POOL", "0")))

if SHARE_POOL:
    torch.cuda.init()
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
