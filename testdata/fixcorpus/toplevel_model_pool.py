"""A model loaded onto the GPU at import time and read by the pool's worker:
moving it under the main guard would leave the spawn children without it
(NameError: model), so that fix is display-only."""
# fixcorpus: CFL004 display-only
import multiprocessing as mp

import torch

model = torch.nn.Linear(4, 2).cuda()


def predict(row):
    x = torch.tensor(row, device="cuda")
    return model(x).tolist()


if __name__ == "__main__":
    rows = [[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5]]
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(predict, rows))
