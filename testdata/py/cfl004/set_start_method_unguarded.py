"""The start method is chosen at the top level, outside the main guard, and
the model is built there too. A spawned worker re-imports this script after
multiprocessing set its start method to its parent's: the second
set_start_method raises RuntimeError ("context has already been set"), and
the worker dies before it builds the model."""
import torch
import torch.multiprocessing as mp

mp.set_start_method("spawn")
model = torch.nn.Linear(8, 8).cuda()


def worker(rank):
    torch.cuda.set_device(rank)
    print(rank, torch.cuda.current_device())


if __name__ == "__main__":
    procs = [mp.Process(target=worker, args=(rank,)) for rank in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
