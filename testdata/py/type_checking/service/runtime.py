"""Picks the device when the package is imported."""
import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"  # want "CFL004 .*in `service.runtime`, which it imports at its top level"


def device_name():
    return DEVICE
