"""A worker hands its job to a grandchild and exits at once, and so does the root: the grandchild
outlives them both. It waits until its parent is gone; then, with "quick", it makes its CUDA calls
and exits, and without, it sleeps first (a job still queued when the program's root exits).
Prints the grandchild's pid."""
import os
import sys
import time

import fakecu


def grandchild(linger):
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.01)
    if linger:
        time.sleep(30)
    drv = fakecu.Driver("dlsym")
    drv.init()
    drv.use()
    os._exit(0)


if __name__ == "__main__":
    linger = sys.argv[1:] != ["quick"]
    r, w = os.pipe()
    worker = os.fork()
    if worker == 0:
        pid = os.fork()
        if pid == 0:
            grandchild(linger)
        os.write(w, str(pid).encode())
        os._exit(0)
    os.waitpid(worker, 0)
    print("GRANDCHILD", os.read(r, 32).decode(), flush=True)
