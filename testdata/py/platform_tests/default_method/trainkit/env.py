"""Process settings shared by the training scripts: the start method is
left at the Python version's default (forkserver from 3.14 on Linux)."""
import multiprocessing

NUM_WORKERS = 4
if multiprocessing.get_start_method() == "spawn":
    NUM_WORKERS = 0
