"""Inference helpers the benchmarks share: one process per rank."""
import torch
import torch.multiprocessing as mp


def _rank_worker(rank):
    torch.cuda.set_device(rank)
    torch.ones(1, device="cuda").sum().item()


def run_inference(world_size):
    procs = [mp.Process(target=_rank_worker, args=(r,)) for r in range(world_size)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
