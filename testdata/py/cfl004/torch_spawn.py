"""torch.multiprocessing.spawn uses the spawn start method."""
import torch
import torch.multiprocessing as mp

print(torch.cuda.get_device_properties(0))  # want "CFL004 .*torch\\.multiprocessing workers"


def worker(rank):
    torch.cuda.set_device(rank)


if __name__ == "__main__":
    mp.spawn(worker, nprocs=2)
