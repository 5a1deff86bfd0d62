"""Uses the GPU when there is one, as most training scripts do: the parent initializes CUDA, then
forks a worker that uses it. Without a driver, or without a device, both run on the CPU and the
program succeeds."""
import multiprocessing as mp

import fakecu

drv = None


def work():
    if drv is not None:
        drv.use()  # cfl:use
    print("WORKED", "gpu" if drv is not None else "cpu", flush=True)


if __name__ == "__main__":
    drv = fakecu.available()  # cfl:init
    p = mp.get_context("fork").Process(target=work)
    p.start()  # cfl:fork
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
