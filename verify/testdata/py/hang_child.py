"""The child of an initialized parent hangs inside the driver (cuStreamSynchronize never returns
there, as jax's child hung); the parent waits for it forever."""
import multiprocessing as mp

import fakecu

drv = fakecu.Driver("procaddr")


def child():
    print("CHILD_START", flush=True)
    drv.sync()  # cfl:use
    print("CHILD_OK", flush=True)


if __name__ == "__main__":
    drv.init()  # cfl:init
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
