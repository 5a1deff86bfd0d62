"""Project helper: formats items, and, run as a script, prints what the GPU
and cuDNN are (MONAI's deviceconfig shape)."""
import torch


def get_gpu_info():
    return {"name": torch.cuda.get_device_name(0), "cudnn": torch.backends.cudnn.version()}


def describe(item):
    return f"item {item!r}"


if __name__ == "__main__":
    print(get_gpu_info())
