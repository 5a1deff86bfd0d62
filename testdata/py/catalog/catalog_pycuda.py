"""Catalog fixture: pycuda. Each probe calls one catalogued API and then forks
a worker that uses CUDA through pycuda; initializers are reported at the call
(CFL001); calls that need an initialized driver or a current context but do
not make one stay silent, as do known non-initializers. pycuda was not on the
measuring machine: the rows rest on pycuda's docs and source (pycuda/autoinit.py
runs cuda.init() and make_default_context() at import). The "# row:" line names
the catalog row a probe proves, the "# evidence:" line why the row says so."""
import multiprocessing as mp

import numpy as np
import pycuda.driver as drv
import pycuda.gpuarray as gpuarray
import pycuda.tools
from pycuda.compiler import SourceModule

KERNEL = """
__global__ void twice(float *x) { x[threadIdx.x] *= 2; }
"""


def use_gpu():
    import pycuda.autoinit

    x = gpuarray.to_gpu(np.ones(4, dtype=np.float32))
    assert float(gpuarray.sum(x).get()) == 4.0


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_autoinit():
    # row: import pycuda.autoinit
    # evidence: code inducer/pycuda pycuda/autoinit.py (cuda.init() then make_default_context() at import)
    import pycuda.autoinit  # want "CFL001"
    fork_worker()


def probe_autoprimaryctx():
    # row: import pycuda.autoprimaryctx
    # evidence: code inducer/pycuda pycuda/autoprimaryctx.py (cuda.init() then retains and pushes the primary context at import)
    from pycuda import autoprimaryctx  # want "CFL001"
    print(autoprimaryctx)
    fork_worker()


def probe_import_driver():
    # row: import pycuda.driver
    # evidence: docs https://documen.tician.de/pycuda/driver.html#pycuda.driver.init
    import pycuda.driver
    fork_worker()


def probe_import_gpuarray():
    # row: import pycuda.gpuarray
    # evidence: code inducer/pycuda pycuda/gpuarray.py (imports pycuda.driver and the kernel builders; no init at import)
    import pycuda.gpuarray
    fork_worker()


def probe_init():
    # row: call pycuda.driver.init
    # evidence: docs https://documen.tician.de/pycuda/driver.html#pycuda.driver.init
    drv.init()  # want "CFL001"
    fork_worker()


def probe_driver_call():
    # row: prefix pycuda.driver
    # evidence: docs https://documen.tician.de/pycuda/driver.html#pycuda.driver.init
    n = drv.Device.count()
    print(n)
    fork_worker()


def probe_get_version():
    # row: call pycuda.driver.get_version
    # evidence: docs https://documen.tician.de/pycuda/driver.html#pycuda.driver.get_version
    print(drv.get_version())
    fork_worker()


def probe_get_driver_version():
    # row: call pycuda.driver.get_driver_version
    # evidence: docs https://documen.tician.de/pycuda/driver.html#pycuda.driver.get_driver_version
    print(drv.get_driver_version())
    fork_worker()


def probe_make_context(rank):
    # row: call pycuda.driver.Device().make_context
    # evidence: docs https://documen.tician.de/pycuda/driver.html#pycuda.driver.Device.make_context
    ctx = drv.Device(rank).make_context()  # want "CFL001"
    ctx.pop()
    fork_worker()


def probe_make_default_context():
    # row: call pycuda.tools.make_default_context
    # evidence: docs https://documen.tician.de/pycuda/util.html#pycuda.tools.make_default_context
    ctx = pycuda.tools.make_default_context()  # want "CFL001"
    ctx.pop()
    fork_worker()


def probe_to_gpu():
    # row: prefix pycuda.gpuarray
    # evidence: docs https://documen.tician.de/pycuda/array.html
    x = gpuarray.to_gpu(np.zeros(4, dtype=np.float32))
    print(x)
    fork_worker()


def probe_source_module():
    # row: call pycuda.compiler.SourceModule
    # evidence: docs https://documen.tician.de/pycuda/driver.html#pycuda.compiler.SourceModule
    mod = SourceModule(KERNEL)
    print(mod)
    fork_worker()
