"""No CUDA at all: fork many short-lived children (the overhead benchmark, and a transparency
fixture)."""
import os
import sys

import fakecu

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100

if __name__ == "__main__":
    total = 0
    for i in range(N):
        pid = os.fork()
        if pid == 0:
            os._exit(0)  # a non-zero exit would be a failed child: verify exits 3
        _, status = os.waitpid(pid, 0)
        total += os.waitstatus_to_exitcode(status) == 0
    fakecu.probe("parent")
    print("TOTAL", total, flush=True)
