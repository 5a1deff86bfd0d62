"""The parent ends its pool's workers on purpose (Pool.terminate sends each SIGTERM) while they
still work: no worker failed."""
import multiprocessing as mp
import time


def nap(_):
    time.sleep(60)


if __name__ == "__main__":
    pool = mp.get_context("fork").Pool(2)
    pool.map_async(nap, range(2))
    time.sleep(0.5)
    pool.terminate()
    pool.join()
    print("TERMINATED", flush=True)
