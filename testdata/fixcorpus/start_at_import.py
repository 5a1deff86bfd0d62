"""A pool started at import time: children that re-import the module
(spawn, and forkserver, the default from Python 3.14) start it again. It
moves under a new main guard."""
# fixcorpus: CFL005 unsafe
import multiprocessing as mp


def square(x):
    return x * x


pool = mp.Pool(2)
print(pool.map(square, range(5)))
pool.close()
pool.join()
