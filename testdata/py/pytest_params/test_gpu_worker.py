"""A parametrized distributed test whose rows name a worker and a world
size: one of the workers allocates on the GPU. The harness forks after the
module's CUDA check, so that worker fails in its child."""
import pytest
import torch
import torch.multiprocessing as mp

HAS_GPU = torch.cuda.is_available()  # want "CFL001 .*torch.multiprocessing workers.*the child uses CUDA \\(`torch.ones\\(\\)`"


def _cpu_worker(rank, size):
    print(rank, torch.ones(size).sum().item())


def _gpu_worker(rank, size):
    print(rank, torch.ones(size, device="cuda").sum().item())


@pytest.mark.parametrize("worker, size", [(_cpu_worker, 4), (_gpu_worker, 8)])
def test_workers(worker, size):
    mp.start_processes(worker, args=(size,), nprocs=2, start_method="fork")
