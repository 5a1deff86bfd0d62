"""multiprocessing fork: the parent initializes CUDA (cuGetProcAddress style); the child never
touches CUDA and succeeds (benign)."""
import multiprocessing as mp

import fakecu

drv = fakecu.Driver("procaddr")


def child():
    fakecu.probe("child")
    print("CHILD_OK", sum(range(10)), flush=True)


if __name__ == "__main__":
    drv.init()  # cfl:init
    fakecu.probe("parent")
    p = mp.get_context("fork").Process(target=child)
    p.start()  # cfl:fork
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
