"""CUDA initialized at the main module's top level, then a spawn child: the child imports the main
module again and initializes CUDA too (CFL004). Nothing fails."""
import multiprocessing as mp

import fakecu

fakecu.Driver("dlsym").init()  # cfl:init


def work():
    print("CHILD_OK", flush=True)


if __name__ == "__main__":
    p = mp.get_context("spawn").Process(target=work)
    p.start()
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
