"""The look-alike that fails: outside a Slurm array task (the default, with
SLURM_ARRAY_TASK_ID unset) the pipeline runs its shards locally, in worker
processes started at import time of this unguarded script."""
import multiprocessing as mp
import os


def process_shard(rank):
    with open(f"/data/shards/{rank:05d}.jsonl") as f:
        return sum(1 for _ in f)


class Pipeline:
    def __init__(self, workers=4):
        self.workers = workers

    def run(self):
        if "SLURM_ARRAY_TASK_ID" not in os.environ:
            ctx = mp.get_context("spawn")
            procs = [ctx.Process(target=process_shard, args=(i,)) for i in range(self.workers)]
            for p in procs:
                p.start()  # want "CFL005 .*\"spawn\" start method"
            for p in procs:
                p.join()
        else:
            process_shard(int(os.environ["SLURM_ARRAY_TASK_ID"]))


pipeline = Pipeline()
pipeline.run()
