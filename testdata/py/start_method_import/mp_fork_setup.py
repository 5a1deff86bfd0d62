"""A helper that forces fork, Python 3.14's forkserver default included."""
import multiprocessing as mp

mp.set_start_method("fork", force=True)
