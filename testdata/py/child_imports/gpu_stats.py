"""Project helper: the GPU's name, read when first imported."""
import torch

NAME = torch.cuda.get_device_name(0)
