"""The device is chosen at import time (torch.cuda.is_available()
initializes CUDA) and the evaluation workers use it: display-only, or the
workers would die with NameError: name 'device' is not defined."""
# fixcorpus: CFL004 display-only
import torch
import torch.multiprocessing as tmp

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
BATCH = 2


def evaluate(seed):
    x = torch.ones(BATCH, 4, device=device) * seed
    layer = torch.nn.Linear(4, 1).to(device)
    return round(layer(x).sum().item(), 4)


if __name__ == "__main__":
    with tmp.get_context("spawn").Pool(2) as pool:
        print(pool.map(evaluate, [1, 2, 3]))
