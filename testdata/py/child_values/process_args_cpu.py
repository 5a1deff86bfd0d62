"""The look-alike that works: the same worker, handed the CPU."""
import multiprocessing as mp

import torch


def work(device, n):
    x = torch.randn(n, n).to(device)
    return (x @ x).sum().item()


if __name__ == "__main__":
    print(torch.cuda.get_device_name(0))  # want "CFL003 .*a Process.*the children never touch CUDA"
    procs = [mp.Process(target=work, kwargs={"device": "cpu", "n": 64}) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
