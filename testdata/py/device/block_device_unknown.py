# The workers allocate under a `with torch.device(...)` block whose device
# comes from the environment: the analysis cannot tell whether it is a GPU,
# so the fork after the parent's initialization is the warning, not an error
# (docs/rules/README.md, "What an error means"). A factory call with no
# device argument under such a block once crashed the analysis.
import multiprocessing as mp
import os

import torch


def work(i):
    with torch.device(os.environ.get("WORKER_DEVICE", "cpu")):
        return torch.zeros(3).sum().item()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL003 .*block around `torch.zeros\\(\\)` names a GPU"
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
