"""Set the method once, or check that the one already chosen matches; the
application asks for "spawn"."""
import multiprocessing

import torch


def ensure_multiprocessing_start_method(start_method):
    if start_method is None:
        return
    current_method = multiprocessing.get_start_method(allow_none=True)
    if current_method is None:
        multiprocessing.set_start_method(start_method)
    elif current_method != start_method:
        raise RuntimeError(f"start method is already {current_method!r}")


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    ensure_multiprocessing_start_method("spawn")
    torch.cuda.init()
    with multiprocessing.Pool(2) as pool:
        print(pool.map(work, range(2)))
