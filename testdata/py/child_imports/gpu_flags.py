"""Project helper: whether the GPU supports bfloat16, read at import."""
import torch

BF16 = torch.cuda.is_bf16_supported()  # want "CFL006 .*server_children\\.py.*the children never touch CUDA" "CFL004"
