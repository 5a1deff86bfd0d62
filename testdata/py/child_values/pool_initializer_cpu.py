"""The look-alike that works: the workers load the model on the CPU."""
import multiprocessing as mp

import torch

MODEL = None


def load(device):
    global MODEL
    MODEL = torch.nn.Linear(8, 2).to(device)


def predict(x):
    return MODEL(torch.tensor(x).float()).tolist()


if __name__ == "__main__":
    warm = torch.zeros(1, device="cuda")  # want "CFL003 .*Pool workers.*the children never touch CUDA"
    with mp.Pool(2, initializer=load, initargs=("cpu",)) as pool:
        print(pool.map(predict, [[0.0] * 8, [1.0] * 8]))
