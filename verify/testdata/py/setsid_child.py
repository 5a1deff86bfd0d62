"""For the --timeout test: a child leaves the process group (setsid) and sleeps; so does the
parent. Prints the child's pid."""
import os
import time

if __name__ == "__main__":
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        os.write(w, b"x")
        time.sleep(120)
        os._exit(0)
    os.read(r, 1)  # the child has left the group
    print("ESCAPED", pid, flush=True)
    time.sleep(120)
