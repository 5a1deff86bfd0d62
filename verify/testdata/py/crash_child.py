"""Children of an initialized parent whose CUDA calls fail and who then die: one by SIGSEGV, one
by SIGABRT (as jax's child aborted on a failed check)."""
import ctypes
import multiprocessing as mp
import os

import fakecu

drv = fakecu.Driver("dlsym")


def segv():
    try:
        drv.use()  # cfl:use
    except fakecu.CudaError:
        ctypes.string_at(0)  # SIGSEGV


def abort():
    try:
        drv.use()
    except fakecu.CudaError:
        os.abort()


if __name__ == "__main__":
    drv.init()  # cfl:init
    for target in (segv, abort):
        p = mp.get_context("fork").Process(target=target)
        p.start()
        p.join()
        print("CHILD_EXIT", target.__name__, p.exitcode, flush=True)
