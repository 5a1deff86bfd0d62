"""HIGGS feature columns as tensors, shared by the export and training scripts."""
import torch


def column(table, name, device="cpu"):
    """One column of a pyarrow table as a float tensor on device."""
    return torch.from_numpy(table.column(name).to_numpy()).float().to(device)


def gpu_batch(table):
    return column(table, "lepton_pT", device="cuda")
