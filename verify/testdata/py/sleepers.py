"""For the Ctrl-C test: fork children that ignore SIGINT and sleep; print their pids; sleep."""
import os
import signal
import time

if __name__ == "__main__":
    pids = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            time.sleep(120)
            os._exit(0)
        pids.append(pid)
    print("PIDS", " ".join(map(str, pids)), flush=True)
    time.sleep(120)
