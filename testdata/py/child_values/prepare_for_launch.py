"""accelerate's notebook_launcher shape: the launcher wraps the user's
training function in a callable object that sets the rank's environment
and then calls the function it stored, and forks one process per GPU.
Launching the GPU training function after the parent's availability check
fails in the children; launching the CPU data-preparation function is
benign."""
import os

import torch
from torch.multiprocessing import start_processes


class PrepareForLaunch:
    def __init__(self, launcher, distributed_type="NO"):
        self.launcher = launcher
        self.distributed_type = distributed_type

    def __call__(self, index, *args):
        if self.distributed_type == "MULTI_GPU":
            os.environ["LOCAL_RANK"] = str(index)
        self.launcher(*args)


def notebook_launcher(function, args=(), num_processes=2):
    launcher = PrepareForLaunch(function, distributed_type="MULTI_GPU")
    start_processes(launcher, args=args, nprocs=num_processes, start_method="fork")


def train(lr):
    model = torch.nn.Linear(4, 4).cuda()
    print(model, lr)


def tokenize(path):
    with open(path) as f:
        print(len(f.read().split()))


if __name__ == "__main__":
    if torch.cuda.is_available():  # want "CFL001 .*the child uses CUDA \\(`\\.cuda\\(\\)`, line 30\\)" "CFL003 .*the children never touch CUDA"
        notebook_launcher(tokenize, args=("corpus.txt",))
        notebook_launcher(train, args=(0.1,))
