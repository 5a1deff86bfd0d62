"""Picks the GPU for the tools as soon as it is imported."""
import os

import torch

torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
DEVICE = torch.device("cuda")
