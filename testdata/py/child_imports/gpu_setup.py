"""Project helper: tells the rest of the project whether a GPU is present."""
import torch

HAVE_GPU = torch.cuda.is_available()  # want "CFL003 .*cleanup\\.py:\\d+.*the children never touch CUDA"
