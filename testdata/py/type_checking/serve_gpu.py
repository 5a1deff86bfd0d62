"""The same server, but it picks its device when it imports the runtime
module, which every spawned worker imports again."""
import multiprocessing as mp

import service
from service.runtime import device_name


def handle(request):
    return f"{service.describe(request)} on {device_name()}"


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(handle, ["a", "b"]))
