"""Project helper: reports the GPU's memory when first imported."""
import torch

FREE, TOTAL = torch.cuda.mem_get_info()
