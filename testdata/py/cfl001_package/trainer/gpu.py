import torch

DEVICE = torch.device("cuda" if torch.cuda.device_count() else "cpu")


def place(model):
    return model.to(DEVICE)  # want "CFL001 .*`\\.to\\(\\)` initializes CUDA.*run\\.py:\\d+"
