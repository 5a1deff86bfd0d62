"""Clears LD_PRELOAD and re-executes itself: the new image runs without the wrapper, so verify
must say it did not see it (exit 2) rather than report success."""
import os
import sys

if __name__ == "__main__":
    if len(sys.argv) < 2:
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        os.execve(sys.executable, [sys.executable, __file__, "again"], env)
    print("RAN_AGAIN", flush=True)
