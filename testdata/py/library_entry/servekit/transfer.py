"""The engine's KV-transfer workers. The server imports this module; it is never
run as a script (it imports relatively), so the start method its workers use is
whatever the server's entry point chose, which is not here."""
import torch
import torch.multiprocessing as mp

from .devices import device_for


def _transfer_loop(device_id, queue):
    torch.cuda.set_device(device_id)
    while (item := queue.get()) is not None:
        item.to(f"cuda:{device_id}")


class TransferWorker:
    def init_all(self, rank):
        self.device_id = device_for(rank)
        torch.cuda.init()  # want "CFL003 .*`servekit\\.transfer` is a package module that is not run as a script \\(it imports relatively and has no main guard\\).*If that method is \"fork\", the child uses CUDA"
        self.queue = mp.Queue()
        self.proc = mp.Process(target=_transfer_loop, args=(self.device_id, self.queue))
        self.proc.start()
