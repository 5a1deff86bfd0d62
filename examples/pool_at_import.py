"""A helper that builds its worker pool when the module is imported.

CFL005: the pool starts at import time, outside `if __name__ == "__main__":`. Under spawn
(and the forkserver, the default from Python 3.14) each child re-imports this module,
reaches the same line, and stops with "An attempt has been made to start a new process
before the current process has finished its bootstrapping phase".
"""
import multiprocessing as mp


def square(x):
    return x * x


mp.set_start_method("spawn")
pool = mp.Pool(2)
print(pool.map(square, range(8)))
pool.close()
pool.join()
