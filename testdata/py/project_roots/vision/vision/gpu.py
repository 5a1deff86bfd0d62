"""Warms up the GPU when imported, so that the first batch is not slow."""
import torch

torch.cuda.init()
STREAM = torch.cuda.Stream()
