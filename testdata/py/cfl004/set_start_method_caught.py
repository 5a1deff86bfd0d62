"""The start method is set at the top level, outside the main guard, in a
try that ignores the error of a method set before. A spawned worker
re-imports this script: its set_start_method raises, the handler swallows
it, and the worker goes on to build the model on the GPU again."""
import torch
import torch.multiprocessing as mp

try:
    mp.set_start_method("spawn")
except RuntimeError:
    pass
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
