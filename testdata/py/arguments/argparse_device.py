"""The device comes from a command-line option whose default is "cuda": the
parent moves the model there, and the workers it forks allocate on it."""
import argparse
import multiprocessing as mp

import torch


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda")
    p.add_argument("--workers", type=int, default=2)
    return p.parse_args()


def evaluate(args, shard):
    x = torch.randn(8, 8, device=args.device)
    return float(x.sum()) + shard


def main():
    args = parse_args()
    model = torch.nn.Linear(8, 8).to(args.device)  # want "CFL001 .*a Process.*uses CUDA \\(`torch\\.randn\\(\\)`, line 17\\)"
    procs = [mp.Process(target=evaluate, args=(args, i)) for i in range(args.workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return model


if __name__ == "__main__":
    main()
