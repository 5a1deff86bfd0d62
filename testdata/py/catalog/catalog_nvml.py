"""Catalog fixture: pynvml (nvidia-ml-py). NVML is not the CUDA driver API:
its queries never run cuInit, so a child forked afterwards can still use CUDA.
Each probe calls one NVML API and then forks a worker that uses the GPU through
torch; all stay silent. The "# row:" line names the catalog row a probe proves,
the "# evidence:" line why the row says so. Evidence:
testdata/groundtruth/oracle.json ("pynvml: nvmlInit + count") and
oracle_extra.json (measured on an H200)."""
import multiprocessing as mp

import pynvml
import torch


def use_gpu():
    torch.zeros(1, device="cuda")


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import_pynvml():
    # row: import pynvml
    # evidence: oracle "pynvml: nvmlInit + count"
    import pynvml
    print(pynvml)
    fork_worker()


def probe_nvml_init():
    # row: call pynvml.nvmlInit
    # evidence: oracle "pynvml: nvmlInit + count"
    pynvml.nvmlInit()
    fork_worker()


def probe_device_count():
    # row: call pynvml.nvmlDeviceGetCount
    # evidence: oracle "pynvml: nvmlInit + count"
    n = pynvml.nvmlDeviceGetCount()
    print(n)
    fork_worker()


def probe_handle(rank):
    # row: call pynvml.nvmlDeviceGetHandleByIndex
    # evidence: oracle_extra "pynvml: handle, memory info, name, driver version"
    handle = pynvml.nvmlDeviceGetHandleByIndex(rank)
    print(handle)
    fork_worker()


def probe_memory_info(handle):
    # row: call pynvml.nvmlDeviceGetMemoryInfo
    # evidence: oracle_extra "pynvml: handle, memory info, name, driver version"
    info = pynvml.nvmlDeviceGetMemoryInfo(handle)
    print(info.free)
    fork_worker()


def probe_name(handle):
    # row: call pynvml.nvmlDeviceGetName
    # evidence: oracle_extra "pynvml: handle, memory info, name, driver version"
    print(pynvml.nvmlDeviceGetName(handle))
    fork_worker()


def probe_driver_version():
    # row: call pynvml.nvmlSystemGetDriverVersion
    # evidence: oracle_extra "pynvml: handle, memory info, name, driver version"
    print(pynvml.nvmlSystemGetDriverVersion())
    fork_worker()


def probe_shutdown():
    # row: call pynvml.nvmlShutdown
    # evidence: oracle_extra "pynvml: handle, memory info, name, driver version"
    pynvml.nvmlShutdown()
    fork_worker()


def probe_other_query(handle):
    # row: prefix pynvml
    # evidence: oracle_extra "pynvml: handle, memory info, name, driver version"
    print(pynvml.nvmlDeviceGetPowerUsage(handle))
    fork_worker()
