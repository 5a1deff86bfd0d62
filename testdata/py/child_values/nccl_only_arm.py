"""Forked workers set up their process group with gloo, then reduce through
helpers that pick a CUDA device only under NCCL (the shape of allennlp's
distributed_device and dist_reduce, and of detectron2's and fairseq's comm
helpers): the CUDA arm never runs in them, and the device the test picks is
the CPU. A worker that sets up NCCL takes that arm."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def reduce_device():
    if dist.get_backend() == "nccl":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")


def rank_device():
    return -1 if dist.get_backend() != dist.Backend.NCCL else torch.cuda.current_device()


def reduce_sum(value):
    device = torch.device("cpu") if dist.get_backend() != "nccl" else torch.device("cuda", 0)
    total = value.clone().to(device)
    dist.all_reduce(total)
    return total


def setup(rank, world_size, backend):
    dist.init_process_group(backend, init_method="tcp://127.0.0.1:29500", world_size=world_size, rank=rank)


def gloo_worker(rank, world_size):
    dist.init_process_group(backend="gloo", init_method="tcp://127.0.0.1:29500", world_size=world_size, rank=rank)
    print(reduce_device(), rank_device(), reduce_sum(torch.ones(3)))


def gloo_setup_worker(rank, world_size):
    setup(rank, world_size, "gloo")
    print(reduce_sum(torch.ones(3)))


def nccl_worker(rank, world_size):
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29501", world_size=world_size, rank=rank)
    print(reduce_device())


def nccl_setup_worker(rank, world_size):
    setup(rank, world_size, "nccl")
    print(reduce_sum(torch.ones(3)))


def main():
    torch.cuda.init()  # want "CFL003 .*line 54.*and 1 other place; the children never touch CUDA" "CFL001 .*line 56.*and 1 other place; the child uses CUDA \\(`torch\\.cuda\\.current_device\\(\\)`"
    mp.start_processes(gloo_worker, args=(2,), nprocs=2, start_method="fork")
    mp.start_processes(gloo_setup_worker, args=(2,), nprocs=2, start_method="fork")
    mp.start_processes(nccl_worker, args=(2,), nprocs=2, start_method="fork")
    mp.start_processes(nccl_setup_worker, args=(2,), nprocs=2, start_method="fork")


if __name__ == "__main__":
    main()
