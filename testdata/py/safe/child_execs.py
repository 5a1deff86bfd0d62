"""A forked child that immediately execs a new program inherits nothing that
matters."""
import os
import sys

import torch

if __name__ == "__main__":
    torch.zeros(1).cuda()
    pid = os.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", "print('fresh')"])
    os.waitpid(pid, 0)
