"""spawn: the parent initializes CUDA under the main guard; the spawned child initializes its own
and succeeds. No hazard."""
import multiprocessing as mp

import fakecu


def child():
    drv = fakecu.Driver("procaddr")
    drv.init()  # cfl:childinit
    drv.use()
    print("CHILD_OK", flush=True)


if __name__ == "__main__":
    fakecu.Driver("dlsym").init()  # cfl:init
    fakecu.probe("parent")
    p = mp.get_context("spawn").Process(target=child)
    p.start()
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
