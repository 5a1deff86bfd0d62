"""CUDA initialized by a module the main module imports at its top level (preload_init), then a
spawn child: the child imports the main module again, and with it preload_init, which initializes
CUDA again (CFL004, reported at preload_init.py). Nothing fails."""
import multiprocessing as mp

import preload_init  # noqa: F401  # cfl:import


def work():
    print("CHILD_OK", flush=True)


if __name__ == "__main__":
    p = mp.get_context("spawn").Process(target=work)
    p.start()
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
