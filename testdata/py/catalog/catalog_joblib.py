"""Catalog fixture: joblib. Making a Parallel touches no device (launchers.json);
what it forks is the procapi table's business."""
import multiprocessing as mp

import torch
from joblib import Parallel


def use_gpu():
    torch.zeros(1, device="cuda")


def probe_parallel():
    # row: call joblib.Parallel
    # evidence: launchers "joblib: Parallel(n_jobs=2, backend='multiprocessing') constructed"
    parallel = Parallel(n_jobs=2, backend="multiprocessing")
    print(parallel)
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()
