"""A Process subclass stores its device in the constructor and allocates on
it in run(): the instance the parent made decides."""
import multiprocessing as mp

import torch


class Worker(mp.Process):
    def __init__(self, device):
        super().__init__()
        self.device = device

    def run(self):
        torch.ones(16, device=self.device).sum()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*a Process.*uses CUDA \\(`torch\\.ones\\(\\)`, line 14\\)" "CFL003 .*a Process.*the children never touch CUDA"
    gpu, cpu = Worker("cuda"), Worker("cpu")
    gpu.start()
    cpu.start()
