"""An explicit spawn start at import time fails on every version."""
import multiprocessing as mp


def hello():
    print("hello")


ctx = mp.get_context("spawn")
p = ctx.Process(target=hello)
p.start()  # want "CFL005 .*\"spawn\" start method.*Python 3\\.11–3\\.15 on Linux"
p.join()
