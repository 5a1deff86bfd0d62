"""Answers requests in a pool of spawned workers; nothing it imports at
run time touches CUDA."""
import multiprocessing as mp
import typing

import service

if typing.TYPE_CHECKING:
    from service.offload import ActivationOffload


def handle(request):
    return service.describe(request)


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(handle, ["a", "b"]))
