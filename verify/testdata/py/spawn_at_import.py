"""A spawn process started at the top level, outside the main guard (CFL005): the child imports
the main module again, starts a process while still bootstrapping, and dies of multiprocessing's
RuntimeError. The parent exits 0."""
import multiprocessing as mp


def work():
    print("CHILD_OK", flush=True)


p = mp.get_context("spawn").Process(target=work)
p.start()  # cfl:start
p.join()
print("CHILD_EXIT", p.exitcode, flush=True)
