"""The forkserver imports this module and so initializes CUDA before
forking its children, which run code from an installed package the analysis
cannot read: whether they touch CUDA is unseen, so it is a warning (CFL006),
not an error (CFL002)."""
import multiprocessing as mp

import torch
from trainer_lib import run_shard

SHARDS = 4 if torch.cuda.is_available() else 1  # want "CFL006 .*`run_shard`, whose code could not be seen" "CFL004"


if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(run_shard, range(SHARDS)))
