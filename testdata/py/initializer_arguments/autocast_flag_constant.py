"""Mixed precision switched off by a module constant the model resolves."""
import multiprocessing as mp

import torch

USE_AMP = False


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    with torch.autocast("cuda", torch.float16, USE_AMP):
        scaler = torch.cuda.amp.GradScaler(enabled=USE_AMP)
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
