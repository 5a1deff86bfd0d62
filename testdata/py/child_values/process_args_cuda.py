"""Each worker gets its GPU as an argument and allocates on it: the parent
already initialized CUDA, so the forked children fail."""
import multiprocessing as mp

import torch


def work(device, n):
    x = torch.randn(n, n).to(device)
    return (x @ x).sum().item()


if __name__ == "__main__":
    print(torch.cuda.get_device_name(0))  # want "CFL001 .*a Process.*uses CUDA \\(`\\.to\\(\\)`, line 9\\)"
    procs = [mp.Process(target=work, args=(f"cuda:{i}", 64)) for i in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
