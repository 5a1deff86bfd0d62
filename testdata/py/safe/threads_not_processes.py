"""Thread pools and subprocesses never fork a Python process that keeps running."""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.dummy import Pool as DummyPool
from multiprocessing.pool import ThreadPool

import torch


def gpu_sum(n):
    return torch.ones(n, device="cuda").sum().item()


if __name__ == "__main__":
    torch.cuda.init()
    with ThreadPoolExecutor(2) as ex:
        print(list(ex.map(gpu_sum, [1, 2])))
    with ThreadPool(2) as tp:
        print(tp.map(gpu_sum, [3]))
    with DummyPool(2) as dp:
        print(dp.map(gpu_sum, [4]))
    subprocess.run([sys.executable, "-c", "print('child')"], check=True)
