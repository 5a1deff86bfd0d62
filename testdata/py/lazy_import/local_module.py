"""A lazily imported local module runs its top level where its name is first
used: here in the parent, before the fork (the finding is at the
initialization, in gpu_state.py, reached through that use)."""
import multiprocessing as mp

lazy import gpu_state


def work(i):
    return int(gpu_state.TABLE[i])


if __name__ == "__main__":
    print(gpu_state.TABLE.sum())
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(work, range(2)))
