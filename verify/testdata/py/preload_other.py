"""Run with another LD_PRELOAD object already set (testdata/preload/other.c): it must keep
working beside the wrapper, and see the program's waitpid calls (it forwards them through
dlsym(RTLD_NEXT), so the chain other -> wrapper -> libc must hold). The fork after init still
has to be found."""
import ctypes
import multiprocessing as mp
import os

import fakecu

drv = fakecu.Driver("dlsym")


def child():
    drv.use()  # cfl:use


if __name__ == "__main__":
    report = os.environ.get("PRELOAD_REPORT")
    if report:
        with open(report, "w") as f:
            f.write(os.environ.get("LD_PRELOAD", ""))
    other = ctypes.CDLL(None).other_preload_waitpid_calls
    drv.init()  # cfl:init
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
    print("OTHER_PRELOAD_SAW_WAITPID", other() > 0, flush=True)
