"""The look-alike of callable_process_target.py: the worker object's
__call__ only counts the lines of its shard on the CPU, so the fork after
the parent's CUDA query is benign."""
import torch
import torch.multiprocessing as mp


class ShardCounter:
    def __init__(self, paths):
        self.paths = paths

    def __call__(self, rank):
        with open(self.paths[rank]) as f:
            print(rank, sum(1 for _ in f))


def main():
    free, total = torch.cuda.mem_get_info()  # want "CFL003 .*a Process.*the children never touch CUDA"
    print(free / total)
    procs = [mp.Process(target=ShardCounter(["a.txt", "b.txt"]), args=(rank,)) for rank in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()


if __name__ == "__main__":
    main()
