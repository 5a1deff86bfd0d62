"""A Process subclass whose run() uses the GPU, started after the parent did."""
import multiprocessing as mp

import torch


class GpuWorker(mp.Process):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def run(self):
        torch.ones(1, device=f"cuda:{self.rank}")


if __name__ == "__main__":
    torch.cuda.current_device()  # want "CFL001 .*the default \"fork\" start method.*uses CUDA"
    w = GpuWorker(0)
    w.start()
    w.join()
