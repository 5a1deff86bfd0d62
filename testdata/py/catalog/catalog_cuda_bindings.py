"""Catalog fixture: cuda.bindings (and the old cuda.cuda / cuda.cudart
spellings). Each probe calls one catalogued API and then forks a worker that
uses the driver API; initializers are reported at the call (CFL001); driver
calls other than cuInit only use an initialized driver and stay silent, as do
the version and error-string queries that never initialize. The "# row:" line
names the catalog row a probe proves, the "# evidence:" line why the row says
so. Evidence: testdata/groundtruth/oracle.json and oracle_extra.json (measured
on an H200), forkmatrix.json for the children (CUDA_ERROR_NOT_INITIALIZED)."""
import multiprocessing as mp

from cuda.bindings import driver, nvrtc, runtime


def use_gpu():
    (err,) = driver.cuInit(0)
    assert err == driver.CUresult.CUDA_SUCCESS, err
    err, dev = driver.cuDeviceGet(0)
    err, ctx = driver.cuDevicePrimaryCtxRetain(dev)
    driver.cuCtxSetCurrent(ctx)
    err, ptr = driver.cuMemAlloc(1024)
    assert err == driver.CUresult.CUDA_SUCCESS, err


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


# --- imports -------------------------------------------------------------------


def probe_import_driver():
    # row: import cuda.bindings.driver
    # evidence: oracle "cuda.bindings: import driver"
    from cuda.bindings import driver
    print(driver)
    fork_worker()


def probe_import_runtime():
    # row: import cuda.bindings.runtime
    # evidence: oracle "cuda.bindings: runtime.cudaRuntimeGetVersion()"
    from cuda.bindings import runtime
    print(runtime)
    fork_worker()


# --- driver API -------------------------------------------------------------------


def probe_cu_init():
    # row: call cuda.bindings.driver.cuInit
    # evidence: oracle "cuda.bindings: driver.cuInit(0)"
    (err,) = driver.cuInit(0)  # want "CFL001"
    print(err)
    fork_worker()


def probe_old_spelling_cu_init():
    from cuda import cuda

    # row: call cuda.bindings.driver.cuInit
    # evidence: oracle "cuda.bindings: driver.cuInit(0)"
    (err,) = cuda.cuInit(0)  # want "CFL001"
    print(err)
    fork_worker()


def probe_driver_call():
    # row: prefix cuda.bindings.driver
    # evidence: docs https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__INITIALIZE.html
    err, count = driver.cuDeviceGetCount()
    print(err, count)
    fork_worker()


def probe_driver_get_version():
    # row: call cuda.bindings.driver.cuDriverGetVersion
    # evidence: oracle "cuda.bindings: driver.cuDriverGetVersion()"
    err, version = driver.cuDriverGetVersion()
    print(err, version)
    fork_worker()


def probe_get_error_string(code):
    # row: call cuda.bindings.driver.cuGetErrorString
    # evidence: oracle_extra "cuda.bindings: driver.cuGetErrorString(CUDA_SUCCESS)"
    err, text = driver.cuGetErrorString(code)
    print(err, text)
    fork_worker()


def probe_get_error_name(code):
    # row: call cuda.bindings.driver.cuGetErrorName
    # evidence: docs https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__ERROR.html
    err, name = driver.cuGetErrorName(code)
    print(err, name)
    fork_worker()


# --- runtime API ------------------------------------------------------------------


def probe_runtime_call():
    # row: prefix cuda.bindings.runtime
    # evidence: oracle_extra "cuda.bindings: runtime.cudaMalloc(16)"
    err, ptr = runtime.cudaMalloc(1024)  # want "CFL001"
    print(err, ptr)
    fork_worker()


def probe_get_device_count():
    # row: call cuda.bindings.runtime.cudaGetDeviceCount
    # evidence: oracle "cuda.bindings: runtime.cudaGetDeviceCount()"
    err, n = runtime.cudaGetDeviceCount()  # want "CFL001"
    print(err, n)
    fork_worker()


def probe_old_spelling_get_device_count():
    from cuda import cudart

    # row: call cuda.bindings.runtime.cudaGetDeviceCount
    # evidence: oracle "cuda.bindings: runtime.cudaGetDeviceCount()"
    err, n = cudart.cudaGetDeviceCount()  # want "CFL001"
    print(err, n)
    fork_worker()


def probe_runtime_get_version():
    # row: call cuda.bindings.runtime.cudaRuntimeGetVersion
    # evidence: oracle "cuda.bindings: runtime.cudaRuntimeGetVersion()"
    err, version = runtime.cudaRuntimeGetVersion()
    print(err, version)
    fork_worker()


def probe_runtime_driver_get_version():
    # row: call cuda.bindings.runtime.cudaDriverGetVersion
    # evidence: oracle_extra "cuda.bindings: runtime.cudaDriverGetVersion()"
    err, version = runtime.cudaDriverGetVersion()  # want "CFL001"
    print(err, version)
    fork_worker()


def probe_runtime_get_error_string(code):
    # row: call cuda.bindings.runtime.cudaGetErrorString
    # evidence: oracle_extra "cuda.bindings: runtime.cudaGetErrorString(cudaSuccess)"
    err, text = runtime.cudaGetErrorString(code)  # want "CFL001"
    print(err, text)
    fork_worker()


def probe_get_device():
    # row: call cuda.bindings.runtime.cudaGetDevice
    # evidence: oracle_extra "cuda.bindings: runtime.cudaGetDevice()"
    err, dev = runtime.cudaGetDevice()  # want "CFL001"
    print(err, dev)
    fork_worker()


def probe_get_device_properties():
    # row: call cuda.bindings.runtime.cudaGetDeviceProperties
    # evidence: oracle_extra "cuda.bindings: runtime.cudaGetDeviceProperties(0)"
    err, props = runtime.cudaGetDeviceProperties(0)  # want "CFL001"
    print(err, props)
    fork_worker()


def probe_device_get_attribute():
    # row: call cuda.bindings.runtime.cudaDeviceGetAttribute
    # evidence: oracle_extra "cuda.bindings: runtime.cudaDeviceGetAttribute(major, 0)"
    err, major = runtime.cudaDeviceGetAttribute(runtime.cudaDeviceAttr.cudaDevAttrComputeCapabilityMajor, 0)  # want "CFL001"
    print(err, major)
    fork_worker()


def probe_set_device(rank):
    # row: call cuda.bindings.runtime.cudaSetDevice
    # evidence: oracle "cuda.bindings: runtime.cudaSetDevice(0)"
    (err,) = runtime.cudaSetDevice(rank)  # want "CFL001"
    print(err)
    fork_worker()


def probe_cuda_free_zero():
    # row: call cuda.bindings.runtime.cudaFree
    # evidence: oracle "cuda.bindings: runtime.cudaFree(0)"
    (err,) = runtime.cudaFree(0)  # want "CFL001"
    print(err)
    fork_worker()


# --- NVRTC ----------------------------------------------------------------------------


def probe_nvrtc():
    # row: prefix cuda.bindings.nvrtc
    # evidence: oracle_extra "cuda.bindings: nvrtc.nvrtcVersion()"
    err, major, minor = nvrtc.nvrtcVersion()
    print(err, major, minor)
    fork_worker()
