"""`python -m servekit`: the package's entry point, so the start method its
workers use is the default "fork", which nothing here changes."""
import torch
import torch.multiprocessing as mp

from .devices import device_for


def _serve(device_id):
    torch.cuda.set_device(device_id)


torch.cuda.init()  # want "CFL001 .*a Process, the default \"fork\" start method"
server = mp.Process(target=_serve, args=(device_for(0),))
server.start()
server.join()
