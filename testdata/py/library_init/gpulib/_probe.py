import torch

HAS_CUDA = torch.cuda.is_available()
