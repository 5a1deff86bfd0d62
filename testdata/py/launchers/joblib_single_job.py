"""joblib's multiprocessing backend with one job (n_jobs left at its default,
or a configured 1): the delayed calls run in the calling process, and nothing
forks after the availability check."""
import torch
from joblib import Parallel, delayed

N_JOBS = 1


def score(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.rand(4, generator=g, device="cuda").sum().item()


if __name__ == "__main__":
    if torch.cuda.is_available():
        print(Parallel(backend="multiprocessing")(delayed(score)(s) for s in range(8)))
        print(Parallel(N_JOBS, "multiprocessing")(delayed(score)(s) for s in range(8)))
