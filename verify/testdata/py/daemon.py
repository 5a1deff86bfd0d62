"""Starts a daemon the classic way (fork, setsid, fork again) that waits before its first CUDA
call, and exits at once: the daemon has left the program's process group. Prints its pid."""
import os
import time

import fakecu

if __name__ == "__main__":
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            time.sleep(30)
            drv = fakecu.Driver("dlsym")
            drv.init()
            drv.use()
            os._exit(0)
        os.write(w, str(pid).encode())
        os._exit(0)
    os.wait()
    print("DAEMON", os.read(r, 32).decode(), flush=True)
