"""Process settings shared by the training scripts. Fork is the fastest way
to start loader workers, and Windows has no fork: on every target here
(Linux) the start method is fork, whatever the Python version's default."""
import multiprocessing
import sys

if sys.platform != "win32":
    try:
        multiprocessing.set_start_method("fork", force=True)
    except (RuntimeError, ValueError) as err:
        print(err)

NUM_WORKERS = 4
if multiprocessing.get_start_method() != "fork":
    NUM_WORKERS = 0
