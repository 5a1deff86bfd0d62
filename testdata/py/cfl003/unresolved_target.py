"""The child's code lives in an installed package the analysis cannot read:
whether it touches CUDA is unseen, so the fork is a warning, not an error."""
import multiprocessing as mp

import torch
from trainer_lib import run_worker

if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 .*the child runs `run_worker`, whose code could not be seen"
    p = mp.get_context("fork").Process(target=run_worker)
    p.start()
    p.join()
