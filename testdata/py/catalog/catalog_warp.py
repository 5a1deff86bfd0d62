"""Catalog fixture: NVIDIA Warp (not installed on the measuring machine: rows rest
on its source). wp.init() runs cuInit and enumerates the devices; the API
functions call it on first use, so array creation initializes the driver
even on the CPU device."""
import multiprocessing as mp

import numpy as np
import torch
import warp as wp


def use_gpu():
    torch.zeros(1, device="cuda")


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import():
    # row: import warp
    # evidence: code NVIDIA/warp warp/_src/context.py
    import warp
    fork_worker()


def probe_init():
    # row: call warp.init
    # evidence: code NVIDIA/warp warp/native/cuda_util.cpp
    wp.init()  # want "CFL001"
    fork_worker()


def probe_device_count():
    # row: call warp.get_cuda_device_count
    # evidence: code NVIDIA/warp warp/_src/context.py
    print(wp.get_cuda_device_count())  # want "CFL001"
    fork_worker()


def probe_is_cuda_available():
    # row: call warp.is_cuda_available
    # evidence: code NVIDIA/warp warp/_src/context.py
    if wp.is_cuda_available():  # want "CFL001"
        print("cuda")
    fork_worker()


def probe_get_device():
    # row: call warp.get_device
    # evidence: code NVIDIA/warp warp/_src/context.py
    print(wp.get_device())  # want "CFL001"
    fork_worker()


def probe_zeros():
    # row: call warp.zeros
    # evidence: code NVIDIA/warp warp/_src/context.py
    a = wp.zeros(16, dtype=wp.vec3, device="cpu")  # want "CFL001"
    print(a)
    fork_worker()


def probe_empty():
    # row: call warp.empty
    # evidence: code NVIDIA/warp warp/_src/context.py
    a = wp.empty(16, dtype=float)  # want "CFL001"
    print(a)
    fork_worker()


def probe_full():
    # row: call warp.full
    # evidence: code NVIDIA/warp warp/_src/context.py
    a = wp.full(16, 1.0, device="cuda:0")  # want "CFL001"
    print(a)
    fork_worker()


def probe_array():
    # row: call warp.array
    # evidence: code NVIDIA/warp warp/_src/types.py
    a = wp.array(np.zeros(4), dtype=float, device="cuda")  # want "CFL001"
    print(a)
    fork_worker()


@wp.kernel
def scale(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


def probe_launch(a):
    # row: call warp.launch
    # evidence: code NVIDIA/warp warp/_src/context.py
    wp.launch(scale, dim=4, inputs=[a])  # want "CFL001"
    fork_worker()
