"""A forked worker sets up its process group with gloo, then reduces through
a helper that picks a CUDA device only under NCCL (the shape of allennlp's
distributed_device and detectron2's comm helpers): the CUDA arm never runs
in it. A worker that sets up NCCL takes that arm."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def reduce_device():
    if dist.get_backend() == "nccl":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")


def rank_device():
    return -1 if dist.get_backend() != dist.Backend.NCCL else torch.cuda.current_device()


def gloo_worker(rank, world_size):
    dist.init_process_group(backend="gloo", init_method="tcp://127.0.0.1:29500", world_size=world_size, rank=rank)
    print(reduce_device(), rank_device())


def nccl_worker(rank, world_size):
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29501", world_size=world_size, rank=rank)
    print(reduce_device())


def main():
    torch.cuda.init()  # want "CFL003 .*line 32.*the children never touch CUDA" "CFL001 .*line 33.*the child uses CUDA \\(`torch\\.cuda\\.current_device\\(\\)`"
    mp.start_processes(gloo_worker, args=(2,), nprocs=2, start_method="fork")
    mp.start_processes(nccl_worker, args=(2,), nprocs=2, start_method="fork")


if __name__ == "__main__":
    main()
