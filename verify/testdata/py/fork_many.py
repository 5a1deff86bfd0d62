"""os.fork 200 times after the parent initialized CUDA: every 50th child uses CUDA (and fails),
the others never touch it."""
import os
import sys

import fakecu

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
drv = fakecu.Driver("dlsym")

if __name__ == "__main__":
    drv.init()  # cfl:init
    pids = []
    for i in range(N):
        pid = os.fork()  # cfl:fork
        if pid == 0:
            code = 0
            if i % 50 == 0:
                try:
                    drv.use()  # cfl:use
                except fakecu.CudaError:
                    code = 1
            os._exit(code)
        pids.append(pid)
    codes = {}
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        codes[code] = codes.get(code, 0) + 1
    fakecu.probe("parent")
    print("EXIT_CODES", sorted(codes.items()), flush=True)
