"""Catalog fixture: cuda.core. Each probe calls one catalogued API and then
forks a worker that uses CUDA through cuda.core; initializers are reported at
the call (CFL001), known non-initializers stay silent. Making a Device already
runs cuInit, which is enough to break a forked child. The "# row:" line names
the catalog row a probe proves, the "# evidence:" line why the row says so.
Evidence: testdata/groundtruth/oracle.json (measured on an H200),
forkmatrix.json for the children (CUDA_ERROR_NOT_INITIALIZED), and the
cuda.core docs for what was not measured."""
import multiprocessing as mp

from cuda.core import Device, launch, system


def use_gpu():
    d = Device()
    d.set_current()
    d.create_stream().sync()


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import_cuda_core():
    # row: import cuda.core
    # evidence: oracle "cuda.core: import cuda.core"
    import cuda.core
    fork_worker()


def probe_device():
    # row: call cuda.core.Device
    # evidence: oracle "cuda.core: Device()"
    dev = Device()  # want "CFL001"
    print(dev)
    fork_worker()


def probe_device_index(rank):
    # row: call cuda.core.Device
    # evidence: oracle "cuda.core: Device()"
    dev = Device(rank)  # want "CFL001"
    print(dev)
    fork_worker()


def probe_experimental_device():
    from cuda.core.experimental import Device as OldDevice

    # row: call cuda.core.Device
    # evidence: oracle "cuda.core: Device()"
    dev = OldDevice(0)  # want "CFL001"
    print(dev)
    fork_worker()


def probe_set_current():
    # row: call cuda.core.Device().set_current
    # evidence: oracle "cuda.core: Device().set_current()"
    Device(0).set_current()  # want "CFL001"
    fork_worker()


def probe_create_stream():
    # row: call cuda.core.Device().create_stream
    # evidence: oracle "cuda.core: Device().create_stream() after set_current"
    stream = Device().create_stream()  # want "CFL001"
    print(stream)
    fork_worker()


def probe_allocate():
    # row: call cuda.core.Device().allocate
    # evidence: docs https://nvidia.github.io/cuda-python/cuda-core/latest/generated/cuda.core.experimental.Device.html
    buf = Device().allocate(1024)  # want "CFL001"
    print(buf)
    fork_worker()


def probe_create_event():
    # row: call cuda.core.Device().create_event
    # evidence: docs https://nvidia.github.io/cuda-python/cuda-core/latest/generated/cuda.core.experimental.Device.html
    done = Device().create_event()  # want "CFL001"
    print(done)
    fork_worker()


def probe_sync():
    # row: call cuda.core.Device().sync
    # evidence: docs https://nvidia.github.io/cuda-python/cuda-core/latest/generated/cuda.core.experimental.Device.html
    Device().sync()  # want "CFL001"
    fork_worker()


def probe_memory_resource():
    # row: attr cuda.core.Device().memory_resource
    # evidence: docs https://nvidia.github.io/cuda-python/cuda-core/latest/generated/cuda.core.experimental.DeviceMemoryResource.html
    mr = Device().memory_resource  # want "CFL001"
    print(mr)
    fork_worker()


def probe_name():
    # row: attr cuda.core.Device().name
    # evidence: oracle "cuda.core: Device().name"
    print(Device().name)  # want "CFL001"
    fork_worker()


def probe_compute_capability():
    # row: attr cuda.core.Device().compute_capability
    # evidence: oracle "cuda.core: Device().compute_capability"
    cc = Device(0).compute_capability  # want "CFL001"
    print(cc)
    fork_worker()


def probe_properties():
    # row: attr cuda.core.Device().properties
    # evidence: docs https://nvidia.github.io/cuda-python/cuda-core/latest/generated/cuda.core.experimental.Device.html
    props = Device(0).properties  # want "CFL001"
    print(props)
    fork_worker()


def probe_num_devices():
    # row: call cuda.core.system.get_num_devices
    # evidence: oracle "cuda.core: system.get_num_devices()"
    n = system.get_num_devices()
    print(n)
    fork_worker()


def probe_launch(stream, config, kernel, arg):
    # row: call cuda.core.launch
    # evidence: docs https://nvidia.github.io/cuda-python/cuda-core/latest/generated/cuda.core.experimental.launch.html
    launch(stream, config, kernel, arg)
    fork_worker()
