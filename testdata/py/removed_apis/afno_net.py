"""A Fourier neural operator network written against NumPy 1.x: it pads with
numpy.lib.arraypad, a submodule NumPy 2.0 made private."""
import torch
from numpy.lib.arraypad import pad


class AFNONet(torch.nn.Module):
    def __init__(self, channels=4):
        super().__init__()
        self.proj = torch.nn.Linear(channels, channels)

    def forward(self, x):
        return self.proj(x)


def pad_field(field, width=1):
    return pad(field, width, mode="wrap")
