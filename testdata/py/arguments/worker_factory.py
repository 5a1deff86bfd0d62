"""Vector environments (tianshou's shape): the base class calls a worker
factory it is handed for each environment function, and the factory starts
a process. The environments step on the CPU; the policy is on the GPU."""
import multiprocessing as mp

import torch


class SubprocWorker:
    def __init__(self, env_fn):
        self.process = mp.Process(target=self._run, args=(env_fn,), daemon=True)
        self.process.start()

    @staticmethod
    def _run(env_fn):
        env = env_fn()
        while env.step():
            pass


class BaseVectorEnv:
    def __init__(self, env_fns, worker_fn):
        self.workers = [worker_fn(fn) for fn in env_fns]


class SubprocVectorEnv(BaseVectorEnv):
    def __init__(self, env_fns):
        def worker_fn(fn):
            return SubprocWorker(fn)

        super().__init__(env_fns, worker_fn)


class Counter:
    def __init__(self):
        self.n = 0

    def step(self):
        self.n += 1
        return self.n < 100


def main(device="cuda" if torch.cuda.is_available() else "cpu"):  # want "CFL003 .*at `self\\.process\\.start\\(\\)`.*a Process.*the children never touch CUDA" "CFL004" "CFL006 .*the children never touch CUDA"
    policy = torch.nn.Linear(4, 2).to(device)
    envs = SubprocVectorEnv([lambda: Counter() for _ in range(4)])
    return policy, envs


if __name__ == "__main__":
    main()
