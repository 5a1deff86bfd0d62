"""The pool's context comes from a configuration file: the start method is not
known, so a fork after the initialization is only a warning."""
import json
import multiprocessing as mp

import torch


def score(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with open("run.json") as f:
        cfg = json.load(f)
    torch.cuda.init()  # want "CFL003 .*its start method is given by a value the analysis could not evaluate"
    with mp.get_context(cfg["start_method"]).Pool(2) as pool:
        print(pool.map(score, range(2)))
