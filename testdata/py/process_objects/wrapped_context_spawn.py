"""A test harness's own multiprocessing context: it wraps the spawn context
(xformers' SafeMpContext) and hands it to a ProcessPoolExecutor, so the
workers are spawned although the parent has initialized CUDA."""
import concurrent.futures
import multiprocessing

import torch


class SafeMpContext(multiprocessing.context.BaseContext):
    def __init__(self):
        self.mp_context = multiprocessing.get_context("spawn")
        self.processes = []

    def Process(self, *args, **kwargs):
        p = self.mp_context.Process(*args, **kwargs)
        p.daemon = True
        self.processes.append(p)
        return p

    def __getattr__(self, name):
        return getattr(self.mp_context, name)


def on_rank(rank):
    torch.cuda.set_device(rank)
    return torch.ones(1, device="cuda").item()


if __name__ == "__main__":
    if torch.cuda.is_available():
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=SafeMpContext()) as pool:
            print(list(pool.map(on_rank, range(2))))
