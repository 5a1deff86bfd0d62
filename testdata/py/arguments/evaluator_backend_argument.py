"""The same evaluator with the backend named on the command line: the
analysis cannot tell which, and the process backend's worker starts at
import time of this unguarded script, so the start is reported."""
import multiprocessing as mp
import sys


def rollout(env_name, steps):
    return sum(range(steps)) + len(env_name)


class _RolloutBackend:
    def __init__(self, env_name, use_worker=False, sync_schemes=None):
        self._env_name = env_name
        self._use_worker = use_worker or (sync_schemes is not None)

    def run(self, steps):
        if self._use_worker:
            ctx = mp.get_context("spawn")
            worker = ctx.Process(target=rollout, args=(self._env_name, steps))
            worker.start()  # want "CFL005 .*\"spawn\" start method"
            worker.join()
            return None
        return rollout(self._env_name, steps)


class Evaluator:
    def __init__(self, env_name, num_trajectories=10, sync_schemes=None, backend="thread"):
        if backend not in ("thread", "process"):
            raise ValueError(f"unknown backend {backend!r}")
        use_worker = backend == "process" or sync_schemes is not None
        self._backend = _RolloutBackend(env_name, use_worker=use_worker, sync_schemes=sync_schemes)
        self.num_trajectories = num_trajectories

    def evaluate(self):
        return self._backend.run(self.num_trajectories * 100)


evaluator = Evaluator("Pendulum-v1", num_trajectories=1, backend=sys.argv[1])
print("eval:", evaluator.evaluate())
