"""torchrl keeps a start method chosen before it is imported: fork here."""
import multiprocessing as mp

mp.set_start_method("fork")

import torch  # noqa: E402
from torchrl.envs import GymEnv  # noqa: E402


def rollout(seed):
    env = GymEnv("Pendulum-v1")
    return torch.tensor(env.rollout(10).shape, device="cuda").sum().item()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*`mp\\.Pool\\(2\\)` \\(line 17: Pool workers, the \"fork\" start method\\)"
    with mp.Pool(2) as pool:
        print(pool.map(rollout, [0, 1]))
