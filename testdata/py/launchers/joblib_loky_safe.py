"""Look-alike of joblib_multiprocessing_backend.py with the default loky backend:
its workers are fresh interpreters, not forks, and use CUDA freely (measured
after a CUDA context in the parent: both workers ran)."""
import torch
from joblib import Parallel, delayed


def score(seed):
    return torch.rand(4, device="cuda").sum().item() + seed


if __name__ == "__main__":
    torch.zeros(1, device="cuda")
    print(Parallel(n_jobs=4)(delayed(score)(s) for s in range(8)))
    print(Parallel(n_jobs=2, backend="threading")(delayed(score)(s) for s in range(2)))
