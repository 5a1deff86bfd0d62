"""The look-alike that fails: n_jobs=-1 runs one worker per CPU, forked after
the availability check."""
import torch
from joblib import Parallel, delayed


def score(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.rand(4, generator=g, device="cuda").sum().item()


if __name__ == "__main__":
    if torch.cuda.is_available():  # want "CFL001 `torch\\.cuda\\.is_available\\(\\)`.*Parallel.*uses CUDA"
        print(Parallel(n_jobs=-1, backend="multiprocessing")(delayed(score)(s) for s in range(8)))
