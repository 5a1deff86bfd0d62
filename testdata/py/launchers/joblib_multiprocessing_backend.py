"""joblib's multiprocessing backend after a CUDA availability check: the Pool
forks, and each worker's first CUDA call fails with "Cannot re-initialize
CUDA in forked subprocess" (measured, launchers.json)."""
import torch
from joblib import Parallel, delayed


def score(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.rand(4, generator=g, device="cuda").sum().item()


if __name__ == "__main__":
    if torch.cuda.is_available():  # want "CFL001 `torch\\.cuda\\.is_available\\(\\)`.*Parallel.*uses CUDA"
        print(Parallel(n_jobs=4, backend="multiprocessing")(delayed(score)(s) for s in range(8)))
