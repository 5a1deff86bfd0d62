"""Main script: uses the project's helpers from two local modules."""
import multiprocessing as mp

from gpu_setup import init_gpu
from workers import score

if __name__ == "__main__":
    device = init_gpu()
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(score, [[1.0, 2.0], [3.0]]))
