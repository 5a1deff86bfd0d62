"""The look-alike: the default device is the CPU. The parent never
initializes CUDA unless the user asks for it, so there is nothing to
report."""
import argparse
import multiprocessing as mp

import torch


def evaluate(device, shard):
    return float(torch.randn(8, 8, device=device).sum()) + shard


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    args = p.parse_args()
    model = torch.nn.Linear(8, 8).to(args.device)
    with mp.Pool(2) as pool:
        print(pool.starmap(evaluate, [(args.device, i) for i in range(4)]))
    return model


if __name__ == "__main__":
    main()
