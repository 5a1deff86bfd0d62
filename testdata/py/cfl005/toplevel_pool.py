"""A script written for the fork default: fine until Python 3.14 on Linux."""
import multiprocessing as mp


def square(x):
    return x * x


pool = mp.Pool(4)  # want "CFL005 .*the default \"forkserver\" start method.*Python 3\\.14–3\\.15 on Linux"
print(pool.map(square, range(8)))
pool.close()
