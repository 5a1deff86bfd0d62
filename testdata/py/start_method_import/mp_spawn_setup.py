"""The project's multiprocessing setup: spawn everywhere."""
import multiprocessing as mp

mp.set_start_method("spawn", force=True)
