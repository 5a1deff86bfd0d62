"""A forked worker ends itself with SIGKILL, as a program does that gives up hard: the child
failed, whoever sent the signal."""
import multiprocessing as mp
import os
import signal


def give_up():
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    p = mp.get_context("fork").Process(target=give_up)
    p.start()
    p.join()
    print("CHILD_EXIT", p.exitcode, flush=True)
