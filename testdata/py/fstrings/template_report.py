"""Template strings (Python 3.14) with format specifiers, in a script that
forks before it initializes CUDA: nothing to report, and no syntax error."""
import multiprocessing as mp

import torch

title, width = "eval", 30


def score(i):
    return i / 10


if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        scores = pool.map(score, range(4))
    header = t"{title:=^{width}}"
    rows = [T'{s:=>8.2f} {s=!r:<{width // 2}}' for s in scores]
    raw = rt"\d{width}"
    device = torch.device("cuda")
    print(header, rows, raw, torch.tensor(scores, device=device).mean())
