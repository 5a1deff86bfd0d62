"""A per-rank worker object: the Process runs Worker.__call__, which pins
the rank's GPU. The parent already touched CUDA to count the devices'
memory, so the forked child fails. callable_process_target_cpu.py is the
look-alike whose worker only reads files."""
import torch
import torch.multiprocessing as mp


class Worker:
    def __init__(self, world_size):
        self.world_size = world_size

    def __call__(self, rank):
        torch.cuda.set_device(rank)
        x = torch.ones(4, device="cuda")
        print(rank, self.world_size, x.sum().item())


def main():
    free, total = torch.cuda.mem_get_info()  # want "CFL001 .*a Process.*the child uses CUDA \\(`torch\\.cuda\\.set_device\\(\\)`, line 14\\)"
    print(free / total)
    procs = [mp.Process(target=Worker(2), args=(rank,)) for rank in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()


if __name__ == "__main__":
    main()
