"""A distributed test module (allennlp's test_load_state_dict_distributed
shape): pytest hands each test the worker functions its parametrize
decorator lists, and a fork-based harness runs them in gloo workers. Every
listed worker stays on the CPU, so the fork after the module's CUDA check is
benign."""
import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

DEVICES = ["cuda:0"] if torch.cuda.is_available() else ["cpu"]  # want "CFL003 .*torch.multiprocessing workers.*the children never touch CUDA"


def _sum_ok(rank, world_size):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29500", rank=rank, world_size=world_size)
    total = torch.ones(4) * rank
    dist.all_reduce(total)
    assert total.sum().item() == 4 * sum(range(world_size))


def _sum_missing_keys(rank, world_size):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29500", rank=rank, world_size=world_size)
    state = {"weight": torch.randn(2, 2)}
    dist.broadcast(state["weight"], src=0)


def run_distributed(func, world_size=2):
    mp.start_processes(func, args=(world_size,), nprocs=world_size, start_method="fork")


@pytest.mark.parametrize("test_func", [_sum_ok, pytest.param(_sum_missing_keys, id="missing")])
def test_distributed_sum(test_func):
    run_distributed(test_func)
