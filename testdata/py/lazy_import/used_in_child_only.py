"""Safe look-alike of used_before_fork.py: the lazily imported cudf is used
only in the children, so the parent never initializes CUDA before forking,
and the forkserver (the 3.15 default), which imports this module, does not
either: importing it does not reify the lazy import."""
import multiprocessing as mp

lazy import cudf


def work(i):
    return len(cudf.DataFrame({"a": [i]}))


if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(work, range(2)))
    with mp.Pool(2) as pool:
        print(pool.map(work, range(2)))
