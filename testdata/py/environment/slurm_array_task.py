"""A pipeline submits itself as a Slurm array job when run by hand, and
runs its shards in worker processes only inside an array task
(SLURM_ARRAY_TASK_ID set by Slurm, whose job runs a guarded entry point).
Run as a script, with the variable unset, it only submits: no finding."""
import multiprocessing as mp
import os
import subprocess


def process_shard(rank):
    with open(f"/data/shards/{rank:05d}.jsonl") as f:
        return sum(1 for _ in f)


class SlurmPipeline:
    def __init__(self, tasks, workers=4):
        self.tasks = tasks
        self.workers = workers

    def run(self):
        if "SLURM_ARRAY_TASK_ID" in os.environ:
            rank = int(os.environ["SLURM_ARRAY_TASK_ID"])
            procs = [mp.Process(target=process_shard, args=(rank * self.workers + i,)) for i in range(self.workers)]
            for p in procs:
                p.start()
            for p in procs:
                p.join()
        else:
            subprocess.run(["sbatch", f"--array=0-{self.tasks - 1}", "pipeline.slurm"], check=True)


pipeline = SlurmPipeline(tasks=8000)
pipeline.run()
