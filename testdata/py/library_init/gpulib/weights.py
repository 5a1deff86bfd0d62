"""Loads its weights onto the GPU at import: a context in every importer."""
import torch

TABLE = torch.arange(16, device="cuda")
