"""Catalog fixture: DeepSpeed (not installed on the measuring machine: rows rest
on its source). The first get_accelerator() asks torch.cuda.is_available() to
pick the CUDA accelerator, which runs cuInit."""
import multiprocessing as mp

import torch


def use_gpu():
    torch.zeros(1, device="cuda")


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_get_accelerator():
    from deepspeed.accelerator import get_accelerator

    # row: call deepspeed.accelerator.get_accelerator
    # evidence: code microsoft/DeepSpeed accelerator/real_accelerator.py
    accel = get_accelerator()  # want "CFL001"
    print(accel)
    fork_worker()


def probe_get_accelerator_top_level():
    import deepspeed

    # row: call deepspeed.accelerator.get_accelerator
    # evidence: code microsoft/DeepSpeed accelerator/real_accelerator.py
    name = deepspeed.get_accelerator().device_name()  # want "CFL001"
    print(name)
    fork_worker()

