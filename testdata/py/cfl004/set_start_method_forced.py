"""The start method is forced at the top level, outside the main guard, and
the model is built there too. A spawned worker re-imports this script:
force=True replaces the method its parent handed it without complaint, and
the worker goes on to build the model on the GPU again."""
import torch
import torch.multiprocessing as mp

mp.set_start_method("spawn", force=True)
model = torch.nn.Linear(8, 8).cuda()  # want "CFL004 .*every child started at `p\\.start\\(\\)`"


def worker(rank):
    torch.cuda.set_device(rank)
    print(rank, torch.cuda.current_device())


if __name__ == "__main__":
    procs = [mp.Process(target=worker, args=(rank,)) for rank in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
