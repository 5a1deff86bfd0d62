"""Removes a scratch directory in a forked process. The child's
`import gpu_setup` finds the module the parent imported in sys.modules and
runs nothing: the child never touches CUDA."""
import multiprocessing as mp
import shutil

import gpu_setup


def cleanup(path):
    import gpu_setup

    if not gpu_setup.HAVE_GPU:
        print("no GPU")
    shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    p = mp.get_context("fork").Process(target=cleanup, args=("/tmp/x",))
    p.start()
    p.join()
