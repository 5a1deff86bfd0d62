"""A test module that is also run as a script: as __main__, each spawned child
re-imports it and allocates the workspace on the GPU again."""
import multiprocessing as mp

import torch

WORKSPACE = torch.zeros(1024, device="cuda")  # want "CFL004 .*torch\\.zeros"


def write_shard(path):
    with open(path, "w") as f:
        f.write("shard")


def test_async_writer(tmp_path):
    ctx = mp.get_context("spawn")
    p = ctx.Process(target=write_shard, args=(str(tmp_path / "shard"),))
    p.start()
    p.join()


if __name__ == "__main__":
    test_async_writer(__import__("pathlib").Path("/tmp"))
