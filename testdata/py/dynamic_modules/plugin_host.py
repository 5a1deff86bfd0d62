"""The safe look-alike: the installed helper that stays on the host."""
import multiprocessing as mp

import plugins


def work(i):
    return i * 2


if __name__ == "__main__":
    plugins.host_only()
    with mp.Pool(2) as pool:
        print(pool.map(work, range(4)))
