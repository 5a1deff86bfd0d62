"""The same harness around the fork context: its Process makes forked
children, which use CUDA after the parent initialized it."""
import concurrent.futures
import multiprocessing

import torch


class TrackedContext(multiprocessing.context.BaseContext):
    def __init__(self):
        self.inner = multiprocessing.get_context("fork")

    def Process(self, *args, **kwargs):
        return self.inner.Process(*args, **kwargs)


def on_rank(rank):
    torch.cuda.set_device(rank)
    return torch.ones(1, device="cuda").item()


if __name__ == "__main__":
    if torch.cuda.is_available():  # want "CFL001 `torch\\.cuda\\.is_available\\(\\)` initializes CUDA before the process forks at .*the \"fork\" start method"
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=TrackedContext()) as pool:
            print(list(pool.map(on_rank, range(2))))
