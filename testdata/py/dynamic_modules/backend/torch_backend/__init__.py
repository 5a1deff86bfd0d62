import torch


def cuda():
    return torch.device("cuda:0")


def cpu():
    return torch.device("cpu")


def tensor(data):
    return torch.tensor(data)
