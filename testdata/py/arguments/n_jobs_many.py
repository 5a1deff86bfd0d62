"""The look-alike that forks: the same scoring helper asked for every core
(n_jobs=-1) after the model went to the GPU. What the NumPy function does in
the children could not be seen, so it is a warning."""
from multiprocessing import Pool

import numpy as np
import torch


def score_all(metric, batches, n_jobs=1):
    if n_jobs == 1:
        return [metric(b) for b in batches]
    with Pool(n_jobs) as pool:
        return pool.map(metric, batches)


def report(batches):
    return score_all(np.mean, batches, n_jobs=-1)


if __name__ == "__main__":
    model = torch.nn.Linear(4, 4).cuda()  # want "CFL003 .*forks at `Pool\\(n_jobs\\)`.*could not be seen"
    print(report([[1.0, 2.0], [3.0]]), model)
