"""The distributed-test harness again (allennlp's transformer_layer_test):
the start method comes through **kwargs and the device ids default by
`or`. run(start_method="spawn") spawns its workers: nothing is forked after
the parent initialized CUDA, so nothing is reported."""
import torch
import torch.multiprocessing as mp


def init_process(rank, device_ids):
    gpu_id = device_ids[rank]
    if gpu_id >= 0:
        torch.cuda.set_device(gpu_id)
    print(torch.ones(2).sum().item())


def run(device_ids=None, **kwargs):
    device_ids = device_ids or [-1, -1]
    if "start_method" in kwargs:
        start_method = kwargs.pop("start_method")
    else:
        start_method = "spawn" if any(x >= 0 for x in device_ids) else "fork"
    mp.start_processes(init_process, args=(device_ids,), nprocs=len(device_ids), start_method=start_method)


if __name__ == "__main__":
    print(torch.cuda.is_available())
    run(start_method="spawn")
