"""torch.multiprocessing: multiprocessing itself, plus spawn and
start_processes."""
import multiprocessing as _mp
from multiprocessing import *  # noqa: F401,F403 (Process, Pool, get_context, set_start_method, ...)


class ProcessRaisedException(Exception):
    pass


def _wrap(fn, i, args):
    fn(i, *args)


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    ctx = _mp.get_context(start_method)
    procs = [ctx.Process(target=_wrap, args=(fn, i, args), daemon=daemon) for i in range(nprocs)]
    for p in procs:
        p.start()
    if not join:
        return procs
    for p in procs:
        p.join()
    for i, p in enumerate(procs):
        if p.exitcode != 0:
            raise ProcessRaisedException(f"process {i} terminated with exit code {p.exitcode}")
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    return start_processes(fn, args, nprocs, join, daemon, start_method)
