"""An explicit fork start at import time is fine: children do not re-import."""
import multiprocessing as mp


def hello():
    print("hello")


p = mp.get_context("fork").Process(target=hello)
p.start()
p.join()
