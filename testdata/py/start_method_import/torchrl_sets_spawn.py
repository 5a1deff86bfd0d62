"""Importing torchrl sets the "spawn" start method (torchrl/__init__.py), so the
pool below does not fork the initialized parent."""
import multiprocessing as mp

import torch
from torchrl.envs import GymEnv


def rollout(seed):
    env = GymEnv("Pendulum-v1")
    return torch.tensor(env.rollout(10).shape, device="cuda").sum().item()


if __name__ == "__main__":
    torch.cuda.init()
    with mp.Pool(2) as pool:
        print(pool.map(rollout, [0, 1]))
