"""forkserver with set_forkserver_preload of a module that initializes CUDA: the server holds
CUDA state and every child it forks inherits it."""
import multiprocessing as mp

import fakecu


def child():
    fakecu.probe("child")
    fakecu.Driver("dlsym").use()  # cfl:use
    print("CHILD_OK", flush=True)


if __name__ == "__main__":
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["preload_init"])
    fakecu.probe("parent")
    p = ctx.Process(target=child)
    p.start()
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
