"""A worker hands its job to a grandchild and exits at once: the grandchild outlives its parent.
It waits until its parent is gone; then, with "quick", it makes its CUDA calls and tells the root,
which waits for it; without, it sleeps first (a job still queued), and the root exits without
waiting. Prints the grandchild's pid."""
import os
import sys
import time

import fakecu


def grandchild(parent, linger, done):
    while os.getppid() == parent:
        time.sleep(0.01)
    if linger:
        time.sleep(30)
    drv = fakecu.Driver("dlsym")
    drv.init()
    drv.use()
    os.write(done, b"done")
    os._exit(0)


if __name__ == "__main__":
    linger = sys.argv[1:] != ["quick"]
    r, w = os.pipe()
    done_r, done_w = os.pipe()
    worker = os.fork()
    if worker == 0:
        me = os.getpid()
        pid = os.fork()
        if pid == 0:
            grandchild(me, linger, done_w)
        os.write(w, str(pid).encode())
        os._exit(0)
    os.waitpid(worker, 0)
    print("GRANDCHILD", os.read(r, 32).decode(), flush=True)
    if not linger:
        print("GRANDCHILD", os.read(done_r, 4).decode(), flush=True)
