"""torch.multiprocessing.spawn with a model built at import time that every
rank reads: the move under the guard is display-only."""
# fixcorpus: CFL004 display-only
import torch
import torch.multiprocessing as tmp

model = torch.nn.Linear(2, 2).cuda()


def run(rank, world_size):
    out = model(torch.ones(2, device="cuda") * rank)
    assert out.numel() == 2, world_size


if __name__ == "__main__":
    tmp.spawn(run, args=(2,), nprocs=2)
    print("ranks done")
