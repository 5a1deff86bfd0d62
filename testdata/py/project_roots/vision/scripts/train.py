"""Trains the image model; the decoding pool forks after vision.gpu warmed up."""
import multiprocessing as mp

import torch

import vision.gpu  # want "CFL001 .*`vision\\.gpu`.*gpu\\.py:4"
from vision.transforms import normalize


def decode(path):
    pixels = torch.tensor(normalize([float(len(path)), 1.0, 2.0]), device="cuda")
    return pixels.sum().item()


def main(paths):
    print("stream", vision.gpu.STREAM)
    with mp.get_context("fork").Pool(4) as pool:
        return pool.map(decode, paths)


if __name__ == "__main__":
    main(["a.png", "b.png"])
