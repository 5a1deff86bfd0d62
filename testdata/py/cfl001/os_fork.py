"""A CuPy job that forks a helper with os.fork after allocating on the GPU."""
import os

import cupy as cp


def child_work():
    return int(cp.arange(10).sum())


def main():
    warm = cp.arange(3)  # want "CFL001 .*`os\\.fork\\(\\)`.*uses CUDA"
    pid = os.fork()
    if pid == 0:
        child_work()
        os._exit(0)
    os.waitpid(pid, 0)
    print(warm)


if __name__ == "__main__":
    main()
