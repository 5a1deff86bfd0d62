"""A distributed-test harness (allennlp's run_distributed_test shape): GPU
device ids start the workers with spawn; CPU ids (-1) fork them, and a
worker touches CUDA only for a GPU id. Forked workers never touch CUDA, so
the CUDA initialized by the test process is benign here, not a crash."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def init_process(rank, world_size, device_ids):
    gpu_id = device_ids[rank]
    if gpu_id >= 0:
        torch.cuda.set_device(gpu_id)
        dist.init_process_group("nccl", rank=rank, world_size=world_size)
    else:
        dist.init_process_group("gloo", rank=rank, world_size=world_size)
    print(torch.ones(2).sum().item())


def run_distributed_test(device_ids):
    start_method = "spawn" if any(x >= 0 for x in device_ids) else "fork"
    world_size = len(device_ids)
    mp.start_processes(init_process, args=(world_size, device_ids), nprocs=world_size, start_method=start_method)


if __name__ == "__main__":
    devices = ["cuda:0"] if torch.cuda.is_available() else ["cpu"]  # want "CFL003 .*the children never touch CUDA"
    run_distributed_test([-1, -1])
    run_distributed_test([0, 1])
