"""os.fork: the parent initializes CUDA (cuGetProcAddress style); the child uses it and fails."""
import os
import traceback

import fakecu

drv = fakecu.Driver("procaddr")

if __name__ == "__main__":
    drv.init()  # cfl:init
    fakecu.probe("parent")
    pid = os.fork()  # cfl:fork
    if pid == 0:
        try:
            fakecu.probe("child")
            fakecu.Driver("procaddr").use()  # cfl:use
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    print("CHILD_EXIT", os.waitstatus_to_exitcode(status), flush=True)
