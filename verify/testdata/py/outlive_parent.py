"""A job runner that hands the work to a forked child and returns at once, as a launcher that
detaches its worker does: the child finishes after the program's root has exited, so no process
of the program reaps it. "ok" returns normally, "fail" exits 1 through sys.exit, "crash" dies of
SIGSEGV. Prints the child's pid."""
import os
import signal
import sys
import time

if __name__ == "__main__":
    how = sys.argv[1]
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        root = os.getppid()
        os.close(w)  # the root may exit now
        while os.getppid() == root:
            time.sleep(0.01)
        if how == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        sys.exit(1 if how == "fail" else 0)
    os.close(w)
    os.read(r, 1)  # the child is ready: it has seen its parent
    print("CHILD", pid, flush=True)
