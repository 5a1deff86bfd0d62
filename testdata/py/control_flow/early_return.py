"""Formatting helpers (huggingface datasets' map_nested shape): a single
item is converted in the calling process, on the GPU, and returned at once;
only a collection goes to a pool of forked workers. No path forks after the
conversion: the arm that initializes CUDA returns, and the one that finds a
bad item raises. A device probe that breaks out of its loop does fork after
its initialization."""
import json
import sys
from multiprocessing import get_context

import torch


def format_nested(data, num_proc=4):
    if not isinstance(data, (list, tuple)):
        return torch.as_tensor(data, device="cuda")
    with get_context("fork").Pool(num_proc) as pool:
        return pool.map(str, data)


def check_items(data):
    for item in data:
        if item is None:
            torch.cuda.synchronize()
            raise ValueError("missing item")
    with get_context("fork").Pool(2) as pool:
        return pool.map(repr, data)


def probe_then_fan_out(names):
    for name in names:
        if name.startswith("cuda"):
            print(torch.cuda.get_device_name(0))  # want "CFL003 .*Pool workers.*the children never touch CUDA"
            break
    with get_context("fork").Pool(2) as pool:
        return pool.map(len, names)


if __name__ == "__main__":
    data = json.load(open(sys.argv[2]))
    if sys.argv[1] == "format":
        print(format_nested(data))
    elif sys.argv[1] == "check":
        print(check_items(data))
    else:
        print(probe_then_fan_out(data))
