"""A benchmark script beside the package: its own main guard starts the worker
under the default "fork"."""
import torch
import torch.multiprocessing as mp

from servekit.devices import device_for


def transfer_loop(device_id):
    torch.cuda.set_device(device_id)


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*a Process, the default \"fork\" start method"
    p = mp.Process(target=transfer_loop, args=(device_for(0),))
    p.start()
    p.join()
