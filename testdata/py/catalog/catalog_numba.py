"""Catalog fixture: numba.cuda. Each probe calls one catalogued API and then
forks a worker that uses CUDA through numba; initializers are reported at the
call (CFL001), known non-initializers stay silent. The "# row:" line names the
catalog row a probe proves, the "# evidence:" line why the row says so.
Evidence: testdata/groundtruth/oracle.json and oracle_extra.json (measured on
an H200), forkmatrix.json for the children ("CUDA initialized before forking")."""
import multiprocessing as mp

import numpy as np
from numba import cuda


@cuda.jit
def fill(a):
    a[0] = 1


def use_gpu():
    assert cuda.to_device(np.ones(3)).copy_to_host().sum() == 3


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import_numba():
    # row: import numba
    # evidence: oracle "numba: from numba import cuda"
    import numba
    print(numba.__version__)
    fork_worker()


def probe_import_numba_cuda():
    # row: import numba.cuda
    # evidence: oracle "numba: from numba import cuda"
    import numba.cuda
    fork_worker()


def probe_is_available():
    # row: call numba.cuda.is_available
    # evidence: oracle "numba: cuda.is_available()"
    if cuda.is_available():  # want "CFL001"
        print("gpu")
    fork_worker()


def probe_gpus():
    # row: attr numba.cuda.gpus
    # evidence: oracle "numba: cuda.gpus"
    n = len(cuda.gpus)  # want "CFL001"
    print(n)
    fork_worker()


def probe_detect():
    # row: call numba.cuda.detect
    # evidence: oracle "numba: cuda.detect()"
    cuda.detect()  # want "CFL001"
    fork_worker()


def probe_list_devices():
    # row: call numba.cuda.list_devices
    # evidence: oracle_extra "numba: cuda.list_devices()"
    devices = cuda.list_devices()
    print(devices)
    fork_worker()


def probe_is_cuda_array(a):
    # row: call numba.cuda.is_cuda_array
    # evidence: oracle_extra "numba: cuda.is_cuda_array(numpy array)"
    print(cuda.is_cuda_array(a))
    fork_worker()


def probe_jit_decoration():
    # row: call numba.cuda.jit
    # evidence: oracle "numba: @cuda.jit decoration"
    @cuda.jit
    def clear(a):
        a[0] = 0

    print(clear)
    fork_worker()


def probe_kernel_launch():
    a = np.zeros(1)
    # row: call numba.cuda.jit()[]
    # evidence: oracle_extra "numba: kernel launch k[1, 1](a)"
    fill[1, 1](a)  # want "CFL001"
    fork_worker()


def probe_to_device():
    # row: call numba.cuda.to_device
    # evidence: oracle "numba: cuda.to_device"
    d = cuda.to_device(np.zeros(3))  # want "CFL001"
    print(d)
    fork_worker()


def probe_device_array():
    # row: call numba.cuda.device_array
    # evidence: oracle_extra "numba: cuda.device_array(3)"
    d = cuda.device_array(3)  # want "CFL001"
    print(d)
    fork_worker()


def probe_device_array_like(a):
    # row: call numba.cuda.device_array_like
    # evidence: code NVIDIA/numba-cuda numba_cuda/numba/cuda/api.py (device_array_like calls device_array, measured)
    d = cuda.device_array_like(a)  # want "CFL001"
    print(d)
    fork_worker()


def probe_pinned_array():
    # row: call numba.cuda.pinned_array
    # evidence: oracle_extra "numba: cuda.pinned_array(3)"
    h = cuda.pinned_array(3)  # want "CFL001"
    print(h)
    fork_worker()


def probe_mapped_array():
    # row: call numba.cuda.mapped_array
    # evidence: code NVIDIA/numba-cuda numba_cuda/numba/cuda/api.py (mapped_array allocates through current_context(), measured InitContext)
    h = cuda.mapped_array(3)  # want "CFL001"
    print(h)
    fork_worker()


def probe_managed_array():
    # row: call numba.cuda.managed_array
    # evidence: code NVIDIA/numba-cuda numba_cuda/numba/cuda/api.py (managed_array allocates through current_context(), measured InitContext)
    m = cuda.managed_array(3)  # want "CFL001"
    print(m)
    fork_worker()


def probe_select_device(rank):
    # row: call numba.cuda.select_device
    # evidence: oracle "numba: cuda.select_device(0)"
    cuda.select_device(rank)  # want "CFL001"
    fork_worker()


def probe_get_current_device():
    # row: call numba.cuda.get_current_device
    # evidence: oracle "numba: cuda.get_current_device()"
    dev = cuda.get_current_device()  # want "CFL001"
    print(dev.compute_capability)
    fork_worker()


def probe_current_context():
    # row: call numba.cuda.current_context
    # evidence: oracle_extra "numba: cuda.current_context()"
    ctx = cuda.current_context()  # want "CFL001"
    print(ctx)
    fork_worker()


def probe_synchronize():
    # row: call numba.cuda.synchronize
    # evidence: oracle_extra "numba: cuda.synchronize()"
    cuda.synchronize()  # want "CFL001"
    fork_worker()


def probe_stream():
    # row: call numba.cuda.stream
    # evidence: oracle_extra "numba: cuda.stream()"
    stream = cuda.stream()  # want "CFL001"
    print(stream)
    fork_worker()


def probe_default_stream():
    # row: call numba.cuda.default_stream
    # evidence: oracle_extra "numba: cuda.default_stream()"
    stream = cuda.default_stream()  # want "CFL001"
    print(stream)
    fork_worker()


def probe_event():
    # row: call numba.cuda.event
    # evidence: oracle_extra "numba: cuda.event()"
    done = cuda.event()  # want "CFL001"
    print(done)
    fork_worker()
