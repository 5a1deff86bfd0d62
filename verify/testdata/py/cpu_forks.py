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
            os._exit(sum(range(i % 7)) % 256)
        _, status = os.waitpid(pid, 0)
        total += os.waitstatus_to_exitcode(status)
    fakecu.probe("parent")
    print("TOTAL", total, flush=True)
