"""A callable object wraps the task function (mmengine's track_progress_rich
shape): the pool runs _Worker.__call__, which calls the function the
constructor stored. Pure-Python tasks are benign."""
from multiprocessing import Pool

import torch


class _Worker:
    def __init__(self, func):
        self.func = func

    def __call__(self, inputs):
        args, idx = inputs
        return self.func(*args), idx


def track(func, tasks, nproc=2):
    with Pool(nproc) as pool:
        return list(pool.imap_unordered(_Worker(func), [(t, i) for i, t in enumerate(tasks)]))


def square(x):
    return x * x


def on_gpu(x):
    return torch.tensor([x], device="cuda").pow(2).item()


if __name__ == "__main__":
    torch.cuda.is_available()  # want "CFL003 .*Pool workers.*the children never touch CUDA" "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.tensor\\(\\)`, line 28\\)"
    print(track(square, [(1,), (2,)]))
    print(track(on_gpu, [(1,), (2,)]))
