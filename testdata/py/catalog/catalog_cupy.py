"""Catalog fixture: cupy and cupyx. Each probe calls one catalogued API and then
forks a worker that uses CUDA through cupy; initializers are reported at the
call (CFL001), known non-initializers and driver-API users stay silent. The
"# row:" line names the catalog row a probe proves, the "# evidence:" line why
the row says so. Evidence: testdata/groundtruth/oracle.json and
oracle_extra.json (measured on an H200), forkmatrix.json for the children."""
import multiprocessing as mp

import cupy
import cupyx
import numpy
from cupyx import jit

# Kernels built at import time: construction is lazy (measured silent).
COPY = cupy.ElementwiseKernel("float32 x", "float32 y", "y = x", "copy_k")
SUM = cupy.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "sum_k")
SCALE = cupy.RawKernel(r'extern "C" __global__ void scale(float* x) { x[threadIdx.x] *= 2; }', "scale")


@cupy.fuse()
def add_one(x):
    return x + 1


@jit.rawkernel()
def double(x, y):
    y[jit.threadIdx.x] = x[jit.threadIdx.x] * 2


def use_gpu():
    assert int(cupy.arange(3).sum()) == 3


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


# --- import and arrays -------------------------------------------------------


def probe_import_cupy():
    # row: import cupy
    # evidence: oracle "cupy: import cupy"
    import cupy
    fork_worker()


def probe_array_creation():
    # row: prefix cupy
    # evidence: oracle "cupy: cupy.arange(3)"
    x = cupy.zeros((2, 2), dtype=cupy.float32)  # want "CFL001"
    print(x)
    fork_worker()


def probe_asarray(host):
    # row: prefix cupy
    # evidence: oracle "cupy: cupy.arange(3)"
    x = cupy.asarray(host)  # want "CFL001"
    print(x)
    fork_worker()


def probe_random():
    # row: prefix cupy.random
    # evidence: oracle_extra "cupy: cupy.random.seed(0)"
    cupy.random.seed(0)  # want "CFL001"
    fork_worker()


def probe_cupyx():
    # row: prefix cupyx
    # evidence: code cupy/cupy cupyx/ (cupyx.scipy, cupyx.zeros_pinned and friends allocate device or pinned memory)
    buf = cupyx.zeros_pinned((4,))  # want "CFL001"
    print(buf)
    fork_worker()


def probe_asnumpy(x):
    # row: call cupy.asnumpy
    # evidence: oracle_extra "cupy: cupy.asnumpy(numpy array)"
    host = cupy.asnumpy(x)
    print(host)
    fork_worker()


def probe_get_array_module(x):
    # row: call cupy.get_array_module
    # evidence: code cupy/cupy cupy/__init__.py (get_array_module only inspects the argument types)
    xp = cupy.get_array_module(x)
    print(xp)
    fork_worker()


# --- memory pools and allocators ---------------------------------------------


def probe_default_memory_pool():
    # row: call cupy.get_default_memory_pool
    # evidence: oracle "cupy: cupy.get_default_memory_pool()"
    pool = cupy.get_default_memory_pool()
    print(pool)
    fork_worker()


def probe_free_all_blocks():
    # row: call cupy.get_default_memory_pool().free_all_blocks
    # evidence: oracle_extra "cupy: cupy.get_default_memory_pool().free_all_blocks()"
    cupy.get_default_memory_pool().free_all_blocks()  # want "CFL001"
    fork_worker()


def probe_used_bytes():
    pool = cupy.get_default_memory_pool()
    # row: call cupy.get_default_memory_pool().used_bytes
    # evidence: oracle_extra "cupy: cupy.get_default_memory_pool().used_bytes()"
    print(pool.used_bytes())  # want "CFL001"
    fork_worker()


def probe_total_bytes():
    pool = cupy.get_default_memory_pool()
    # row: call cupy.get_default_memory_pool().total_bytes
    # evidence: code cupy/cupy cupy/cuda/memory.pyx (MemoryPool.total_bytes goes through device_pool(), the current device, as used_bytes does)
    print(pool.total_bytes())  # want "CFL001"
    fork_worker()


def probe_default_pinned_memory_pool():
    # row: call cupy.get_default_pinned_memory_pool
    # evidence: oracle_extra "cupy: cupy.get_default_pinned_memory_pool()"
    pinned = cupy.get_default_pinned_memory_pool()
    print(pinned)
    fork_worker()


def probe_pinned_free_all_blocks():
    # row: call cupy.get_default_pinned_memory_pool().free_all_blocks
    # evidence: oracle_extra "cupy: cupy.get_default_pinned_memory_pool().free_all_blocks()"
    cupy.get_default_pinned_memory_pool().free_all_blocks()
    fork_worker()


def probe_memory_pool():
    # row: call cupy.cuda.MemoryPool
    # evidence: oracle_extra "cupy: cupy.cuda.MemoryPool()"
    pool = cupy.cuda.MemoryPool(cupy.cuda.malloc_managed)
    print(pool)
    fork_worker()


def probe_pinned_memory_pool():
    # row: call cupy.cuda.PinnedMemoryPool
    # evidence: oracle_extra "cupy: cupy.cuda.PinnedMemoryPool()"
    pinned = cupy.cuda.PinnedMemoryPool()
    print(pinned)
    fork_worker()


def probe_set_allocator(pool):
    # row: call cupy.cuda.set_allocator
    # evidence: oracle_extra "cupy: cupy.cuda.set_allocator(None)"
    cupy.cuda.set_allocator(pool.malloc)
    fork_worker()


def probe_c_function_allocator(param, malloc_ptr, free_ptr, owner):
    # row: call cupy.cuda.memory.CFunctionAllocator
    # evidence: code cupy/cupy cupy/cuda/memory.pyx (CFunctionAllocator.__init__ only stores the param, malloc and free pointers and the owner; its malloc() allocates through them on the current device)
    shared = cupy.cuda.memory.CFunctionAllocator(param, malloc_ptr, free_ptr, owner)
    cupy.cuda.set_allocator(shared.malloc)
    fork_worker()


def probe_python_function_allocator(malloc, free):
    # row: call cupy.cuda.memory.PythonFunctionAllocator
    # evidence: code cupy/cupy cupy/cuda/memory.pyx (PythonFunctionAllocator.__init__ only stores the malloc and free functions, as CFunctionAllocator does)
    external = cupy.cuda.memory.PythonFunctionAllocator(malloc, free)
    cupy.cuda.set_allocator(external.malloc)
    fork_worker()


def probe_set_pinned_memory_allocator():
    # row: call cupy.cuda.set_pinned_memory_allocator
    # evidence: code cupy/cupy cupy/cuda/pinned_memory.pyx (set_pinned_memory_allocator only stores the allocator, like set_allocator, measured)
    cupy.cuda.set_pinned_memory_allocator(None)
    fork_worker()


def probe_get_cuda_path():
    # row: call cupy.cuda.get_cuda_path
    # evidence: code cupy/cupy cupy/cuda/__init__.py (get_cuda_path reads the environment and the file system)
    print(cupy.cuda.get_cuda_path())
    fork_worker()


# --- availability and the runtime API ----------------------------------------


def probe_is_available():
    # row: call cupy.cuda.is_available
    # evidence: oracle "cupy: cupy.cuda.is_available()"
    if cupy.cuda.is_available():  # want "CFL001"
        print("gpu")
    fork_worker()


def probe_runtime_get_device_properties():
    # row: prefix cupy.cuda.runtime
    # evidence: oracle "cupy: cupy.cuda.runtime.getDeviceCount()"
    props = cupy.cuda.runtime.getDeviceProperties(0)  # want "CFL001"
    print(props["name"])
    fork_worker()


def probe_get_device_count():
    # row: call cupy.cuda.runtime.getDeviceCount
    # evidence: oracle "cupy: cupy.cuda.runtime.getDeviceCount()"
    n = cupy.cuda.runtime.getDeviceCount()  # want "CFL001"
    print(n)
    fork_worker()


def probe_driver_get_version():
    # row: call cupy.cuda.runtime.driverGetVersion
    # evidence: oracle "cupy: cupy.cuda.runtime.driverGetVersion()"
    print(cupy.cuda.runtime.driverGetVersion())  # want "CFL001"
    fork_worker()


def probe_runtime_get_version():
    # row: call cupy.cuda.runtime.runtimeGetVersion
    # evidence: oracle "cupy: cupy.cuda.runtime.runtimeGetVersion()"
    print(cupy.cuda.runtime.runtimeGetVersion())
    fork_worker()


def probe_runtime_set_device(rank):
    # row: call cupy.cuda.runtime.setDevice
    # evidence: oracle_extra "cupy: cupy.cuda.runtime.setDevice(0)"
    cupy.cuda.runtime.setDevice(rank)  # want "CFL001"
    fork_worker()


def probe_runtime_malloc():
    # row: call cupy.cuda.runtime.malloc
    # evidence: code cupy/cupy cupy_backends/cuda/api/runtime.pyx (malloc wraps cudaMalloc, measured InitContext through cuda.bindings)
    ptr = cupy.cuda.runtime.malloc(1024)  # want "CFL001"
    print(ptr)
    fork_worker()


def probe_runtime_mem_get_info():
    # row: call cupy.cuda.runtime.memGetInfo
    # evidence: code cupy/cupy cupy_backends/cuda/api/runtime.pyx (memGetInfo wraps cudaMemGetInfo, which needs the primary context, as torch.cuda.mem_get_info measured)
    free, total = cupy.cuda.runtime.memGetInfo()  # want "CFL001"
    print(free, total)
    fork_worker()


def probe_runtime_device_synchronize():
    # row: call cupy.cuda.runtime.deviceSynchronize
    # evidence: code cupy/cupy cupy_backends/cuda/api/runtime.pyx (deviceSynchronize wraps cudaDeviceSynchronize, which needs the primary context, as torch.cuda.synchronize measured)
    cupy.cuda.runtime.deviceSynchronize()  # want "CFL001"
    fork_worker()


def probe_driver_api():
    # row: prefix cupy.cuda.driver
    # evidence: oracle_extra "cupy: cupy.cuda.driver.ctxGetCurrent() (error caught)"
    ctx = cupy.cuda.driver.ctxGetCurrent()
    print(ctx)
    fork_worker()


# --- devices, streams, events --------------------------------------------------


def probe_device_object(rank):
    # row: call cupy.cuda.Device
    # evidence: oracle "cupy: cupy.cuda.Device(0)"
    dev = cupy.cuda.Device(rank)
    print(dev.id)
    fork_worker()


def probe_device_use(rank):
    # row: call cupy.cuda.Device().use
    # evidence: oracle "cupy: cupy.cuda.Device(0).use()"
    cupy.cuda.Device(rank).use()  # want "CFL001"
    fork_worker()


def probe_device_use_variable(rank):
    dev = cupy.cuda.Device(rank)
    # row: call cupy.cuda.Device().use
    # evidence: oracle "cupy: cupy.cuda.Device(0).use()"
    dev.use()  # want "CFL001"
    fork_worker()


def probe_device_with():
    # row: call cupy.cuda.Device().__enter__
    # evidence: oracle_extra "cupy: with cupy.cuda.Device(0)"
    with cupy.cuda.Device(1):  # want "CFL001"
        pass
    fork_worker()


def probe_device_synchronize():
    # row: call cupy.cuda.Device().synchronize
    # evidence: oracle_extra "cupy: cupy.cuda.Device(0).synchronize()"
    cupy.cuda.Device(0).synchronize()  # want "CFL001"
    fork_worker()


def probe_compute_capability():
    # row: attr cupy.cuda.Device().compute_capability
    # evidence: oracle "cupy: cupy.cuda.Device(0).compute_capability"
    cc = cupy.cuda.Device(0).compute_capability  # want "CFL001"
    print(cc)
    fork_worker()


def probe_mem_info():
    # row: attr cupy.cuda.Device().mem_info
    # evidence: oracle_extra "cupy: cupy.cuda.Device(0).mem_info"
    free, total = cupy.cuda.Device(0).mem_info  # want "CFL001"
    print(free, total)
    fork_worker()


def probe_stream():
    # row: call cupy.cuda.Stream
    # evidence: oracle_extra "cupy: cupy.cuda.Stream()"
    stream = cupy.cuda.Stream(non_blocking=True)  # want "CFL001"
    print(stream)
    fork_worker()


def probe_event():
    # row: call cupy.cuda.Event
    # evidence: oracle_extra "cupy: cupy.cuda.Event()"
    done = cupy.cuda.Event()  # want "CFL001"
    print(done)
    fork_worker()


# --- kernels: building is lazy, calling launches ----------------------------------


def probe_elementwise_kernel_build():
    # row: call cupy.ElementwiseKernel
    # evidence: oracle_extra "cupy: cupy.ElementwiseKernel(...) construction"
    k = cupy.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "double_k")
    print(k)
    fork_worker()


def probe_elementwise_kernel_launch(x):
    # row: call cupy.ElementwiseKernel()
    # evidence: code cupy/cupy cupy/_core/_kernel.pyx (ElementwiseKernel.__call__ compiles, allocates the outputs and launches on the current device)
    y = COPY(x)  # want "CFL001"
    print(y)
    fork_worker()


def probe_reduction_kernel_build():
    # row: call cupy.ReductionKernel
    # evidence: code cupy/cupy cupy/_core/_reduction.pyx (ReductionKernel.__init__ only stores the code; ElementwiseKernel measured silent)
    k = cupy.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_k")
    print(k)
    fork_worker()


def probe_reduction_kernel_launch(x):
    # row: call cupy.ReductionKernel()
    # evidence: code cupy/cupy cupy/_core/_reduction.pyx (ReductionKernel.__call__ compiles and launches on the current device)
    total = SUM(x)  # want "CFL001"
    print(total)
    fork_worker()


def probe_raw_kernel_build():
    # row: call cupy.RawKernel
    # evidence: oracle_extra "cupy: cupy.RawKernel(...) construction"
    k = cupy.RawKernel(r'extern "C" __global__ void noop() {}', "noop")
    print(k)
    fork_worker()


def probe_raw_kernel_launch(x):
    # row: call cupy.RawKernel()
    # evidence: code cupy/cupy cupy/_core/raw.pyx (RawKernel.__call__ loads the module on the current device and launches)
    SCALE((1,), (32,), (x,))  # want "CFL001"
    fork_worker()


def probe_raw_module_build():
    # row: call cupy.RawModule
    # evidence: oracle_extra "cupy: cupy.RawModule(code=...) construction"
    mod = cupy.RawModule(code=r'extern "C" __global__ void noop() {}')
    print(mod)
    fork_worker()


def probe_fuse_decoration():
    # row: call cupy.fuse
    # evidence: oracle_extra "cupy: cupy.fuse decoration"
    @cupy.fuse()
    def squared(x):
        return x * x

    print(squared)
    fork_worker()


def probe_memoize_factory(for_each_device):
    # row: call cupy.memoize
    # evidence: code cupy/cupy cupy/_util.pyx (memoize(for_each_device) only builds the decorator; the memoized function asks for the current device when called)
    cache_per_device = cupy.memoize(for_each_device)
    print(cache_per_device)
    fork_worker()


def probe_fused_call():
    # row: call cupy.fuse()
    # evidence: code cupy/cupy cupy/_core/fusion.pyx (calling a fused function compiles and launches a kernel on the current device)
    y = add_one(numpy.float32(1.0))  # want "CFL001"
    print(y)
    fork_worker()


def probe_rawkernel_decoration():
    # row: call cupyx.jit.rawkernel
    # evidence: oracle_extra "cupy: cupyx.jit.rawkernel decoration"
    @jit.rawkernel()
    def triple(x, y):
        y[jit.threadIdx.x] = x[jit.threadIdx.x] * 3

    print(triple)
    fork_worker()


def probe_rawkernel_launch(x, y):
    # row: call cupyx.jit.rawkernel()
    # evidence: code cupy/cupy cupyx/jit/_interface.py (calling a rawkernel compiles it for the current device and launches)
    double((1,), (32,), (x, y))  # want "CFL001"
    fork_worker()
