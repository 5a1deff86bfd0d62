"""The seed's third case: a normal spawn program that initializes CUDA inside the
main guard. No process that forks has initialized CUDA: nothing to report."""
import multiprocessing as mp

from cuda.core import Device


def child():
    d = Device()
    d.set_current()
    d.create_stream().sync()


if __name__ == "__main__":
    dev = Device()
    dev.set_current()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=child) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
