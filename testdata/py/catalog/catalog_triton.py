"""Catalog fixture: triton. Each probe calls one catalogued API and then forks a
worker that launches a triton kernel; initializers are reported at the call
(CFL001), known non-initializers stay silent. Importing triton and decorating
a kernel touch nothing; picking the active driver (triton.runtime.driver.active)
asks the NVIDIA backend's is_active(), which runs cuInit. The "# row:" line
names the catalog row a probe proves, the "# evidence:" line why the row says
so. Evidence: testdata/groundtruth/oracle.json and oracle_extra.json (measured
on an H200)."""
import multiprocessing as mp

import torch
import triton
import triton.language as tl


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(x_ptr + offs, x + 1, mask=mask)


def use_gpu():
    x = torch.zeros(4, device="cuda")
    add_one[(1,)](x, 4, BLOCK=4)
    assert float(x.sum()) == 4.0


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import_triton():
    # row: import triton
    # evidence: oracle "triton: import triton"
    import triton
    print(triton.__version__)
    fork_worker()


def probe_jit_decoration():
    # row: call triton.jit
    # evidence: oracle_extra "triton: jit decoration in a file"
    @triton.jit
    def noop(x_ptr):
        pass

    print(noop)
    fork_worker()


def probe_kernel_launch(x):
    # row: call triton.jit()[]
    # evidence: docs https://triton-lang.org/main/getting-started/tutorials/01-vector-add.html
    add_one[(1,)](x, 4, BLOCK=4)  # want "CFL001"
    fork_worker()


def probe_active_driver():
    # row: attr triton.runtime.driver.active
    # evidence: oracle_extra "triton: triton.runtime.driver.active (attribute only)"
    drv = triton.runtime.driver.active  # want "CFL001"
    print(drv)
    fork_worker()


def probe_active_driver_call():
    # row: prefix triton.runtime.driver.active
    # evidence: oracle_extra "triton: triton.runtime.driver.active (attribute only)"
    stream = triton.runtime.driver.active.get_current_stream(0)  # want "CFL001"
    print(stream)
    fork_worker()


def probe_get_current_device():
    # row: call triton.runtime.driver.active.get_current_device
    # evidence: oracle "triton: triton.runtime.driver.active.get_current_device()"
    dev = triton.runtime.driver.active.get_current_device()  # want "CFL001"
    print(dev)
    fork_worker()
