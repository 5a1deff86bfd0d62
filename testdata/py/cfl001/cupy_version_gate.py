"""Two ways to gate on the CuPy version before forking GPU workers. Parsing
cupy.__version__ reads a string of the installed package (no CUDA call); the
look-alike asks the runtime for the driver version, which runs cuInit."""
import multiprocessing as mp

import cupy


def scale(x):
    return float((cupy.asarray(x) * 2).sum())


def run_workers(values):
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=scale, args=(v,)) for v in values]
    for p in procs:
        p.start()
    for p in procs:
        p.join()


def gate_on_package_version(values):
    if int(cupy.__version__.split(".")[0]) < 12:
        raise SystemExit("CuPy 12 or newer is required")
    run_workers(values)


def gate_on_driver_version(values):
    if cupy.cuda.runtime.driverGetVersion() < 12000:  # want "CFL001"
        raise SystemExit("a CUDA 12 driver is required")
    run_workers(values)


if __name__ == "__main__":
    gate_on_package_version([1.0, 2.0])
    gate_on_driver_version([1.0, 2.0])
