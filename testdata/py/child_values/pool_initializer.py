"""The pool's initializer builds a model on the device initargs names: on
"cuda" every worker fails as it starts."""
import multiprocessing as mp

import torch

MODEL = None


def load(device):
    global MODEL
    MODEL = torch.nn.Linear(8, 2).to(device)


def predict(x):
    return MODEL(torch.tensor(x).float()).tolist()


if __name__ == "__main__":
    warm = torch.zeros(1, device="cuda")  # want "CFL001 .*Pool workers.*uses CUDA \\(`\\.to\\(\\)`, line 12\\)"
    with mp.Pool(2, initializer=load, initargs=("cuda",)) as pool:
        print(pool.map(predict, [[0.0] * 8, [1.0] * 8]))
