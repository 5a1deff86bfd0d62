"""A prefetch helper (stable-diffusion's ldm.util.parallel_data_prefetch
shape): the argument tuples of the workers are built in one of two branches,
each a list of lists, and a worker gets one row by index. The function in
the first column is what the child calls: loading numpy files is benign,
moving the chunk to the GPU is not."""
import multiprocessing as mp

import numpy as np
import torch


def _prefetch_worker(func, queue, data, idx):
    queue.put([idx, func(data)])


def parallel_prefetch(func, data, n_proc, as_array=True):
    queue = mp.Queue(1000)
    if as_array:
        arguments = [[func, queue, part, i] for i, part in enumerate(np.array_split(data, n_proc))]
    else:
        step = max(1, len(data) // n_proc)
        arguments = [[func, queue, data[i:i + step], i] for i in range(0, len(data), step)]
    processes = []
    for i in range(n_proc):
        p = mp.Process(target=_prefetch_worker, args=arguments[i])
        processes += [p]
    for p in processes:
        p.start()
    results = [queue.get() for _ in range(n_proc)]
    for p in processes:
        p.join()
    return results


def load_npz(paths):
    return [np.load(p) for p in paths]


def to_gpu(chunk):
    return torch.as_tensor(chunk, device="cuda").sum().item()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 .*the children never touch CUDA" "CFL001 .*uses CUDA \\(`torch\\.as_tensor\\(\\)`, line 40\\)"
    parallel_prefetch(load_npz, ["a.npz", "b.npz"], n_proc=2, as_array=False)
    parallel_prefetch(to_gpu, np.arange(8), n_proc=2)
