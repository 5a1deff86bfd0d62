"""More routes to a fork after CUDA initialization, each in its own function
(every uncalled function is analyzed as an entry point)."""
import multiprocessing as mp
import os
import pty
from concurrent.futures import ProcessPoolExecutor

import torch
from torch.utils.data import DataLoader, Dataset


def gpu_square(x):
    return (torch.tensor([x], device="cuda") ** 2).item()


def gpu_pair(a, b):
    return torch.tensor([a, b], device="cuda").sum().item()


def pool_variants():
    torch.cuda.synchronize()  # want "CFL001 .*Pool workers"
    pool = mp.get_context("fork").Pool(2)
    r1 = pool.apply_async(gpu_square, (3,))
    r2 = pool.starmap(gpu_pair, [(1, 2)])
    r3 = list(pool.imap_unordered(gpu_square, range(3)))
    pool.close()
    pool.join()
    return r1.get(), r2, r3


def executor_default_method():
    torch.cuda.get_device_capability()  # want "CFL001 .*ProcessPoolExecutor workers, the default \"fork\" start method.*Python 3\\.11–3\\.13 on Linux"
    with ProcessPoolExecutor(2) as ex:
        return list(ex.map(gpu_square, range(4)))


def with_forkpty():
    torch.cuda.init()  # want "CFL001 .*`pty\\.fork\\(\\)`"
    pid, fd = pty.fork()
    if pid == 0:
        gpu_square(2)
        os._exit(0)
    os.waitpid(pid, 0)


class Plain(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return float(i)


def gpu_collate(batch):
    return torch.tensor(batch).cuda()


def seed_gpu(worker_id):
    torch.cuda.manual_seed(worker_id)
    torch.zeros(1, device="cuda")


def loader_with_fork_context():
    net = torch.nn.Linear(1, 1).cuda()  # want "CFL001 .*DataLoader workers, the \"fork\" start method.*uses CUDA \\(`\\.cuda\\(\\)`.*Python 3\\.11–3\\.15"
    loader = DataLoader(Plain(), batch_size=4, num_workers=2, collate_fn=gpu_collate, multiprocessing_context="fork")
    for b in loader:
        net(b)


def loader_worker_init():
    torch.cuda.current_device()  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`torch\\.zeros\\(\\)`"
    for b in DataLoader(Plain(), num_workers=2, worker_init_fn=seed_gpu):
        print(b)
