"""The seed's first case: a fork parent that initialized CUDA, no IPC involved.
Every child warns in the seed's proposal; statically this is CFL001."""
import multiprocessing as mp

from cuda.core import Device


def child():
    dev = Device()
    dev.set_current()
    dev.create_stream().sync()


if __name__ == "__main__":
    d = Device()  # want "CFL001 .*Device\\(\\)"
    d.set_current()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
