"""The seed's second case: forkserver with CUDA calls at the top level of the
main module. The server imports __main__ (since the fix of python/cpython#126631
in 3.13.8 and 3.14), so every child inherits the CUDA state: CFL002 there.
Before the fix each child re-imports the module itself: CFL004."""
import multiprocessing as mp

from cuda.core import Device

dev = Device()  # want "CFL002 .*3\\.13\\.8\\+, 3\\.14\\.1\\+, 3\\.15" "CFL004 .*3\\.11–3\\.13\\.7, 3\\.14\\.0"
dev.set_current()


def child():
    d = Device()
    d.set_current()
    d.create_stream().sync()


if __name__ == "__main__":
    ctx = mp.get_context("forkserver")
    p = ctx.Process(target=child)
    p.start()
    p.join()
