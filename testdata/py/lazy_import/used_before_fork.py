"""PEP 810 (Python 3.15): `lazy import cudf` does not import cudf at the
import line; the first use of the name does, and `import cudf` initializes
CUDA. Used in the parent before a fork, it breaks the children as an eager
import would, but the initialization is where the name is first used. The
keyword is a SyntaxError before 3.15, so the finding holds on 3.15 only."""
import multiprocessing as mp

lazy import cudf
import torch


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    frame = cudf.DataFrame({"a": [1, 2]})  # want "CFL001 lazy import cudf initializes CUDA before the process forks.*Python 3\\.15 on Linux"
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(work, range(2)), len(frame))
