"""The start method is set from a configuration file: not known to be "fork"."""
import json
import multiprocessing as mp

import torch


def score(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with open("run.json") as f:
        mp.set_start_method(json.load(f)["start_method"])
    torch.cuda.init()  # want "CFL003 .*the start method was set from a value the analysis could not evaluate"
    with mp.Pool(2) as pool:
        print(pool.map(score, range(2)))
