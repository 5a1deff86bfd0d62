"""multiprocessing fork: the parent initializes CUDA (dlsym style), the child uses it and fails."""
import multiprocessing as mp

import fakecu

drv = fakecu.Driver("dlsym")


def child():
    fakecu.probe("child")
    drv.use()  # cfl:use
    print("CHILD_OK", flush=True)


if __name__ == "__main__":
    drv.init()  # cfl:init
    fakecu.probe("parent")
    p = mp.get_context("fork").Process(target=child)
    p.start()  # cfl:fork
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
