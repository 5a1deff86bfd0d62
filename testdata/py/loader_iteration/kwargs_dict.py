"""The loader's options are collected in a dict and unpacked (YOLOX's
get_data_loader): its workers fork after the parent set the device."""
import torch
from torch.utils.data import DataLoader


def get_data_loader(dataset, workers, sampler):
    dataloader_kwargs = {"num_workers": workers, "pin_memory": True}
    dataloader_kwargs["batch_sampler"] = sampler
    return DataLoader(dataset, **dataloader_kwargs)


class Prefetcher:
    def __init__(self, loader):
        self.loader = iter(loader)

    def next(self):
        return next(self.loader)


if __name__ == "__main__":
    torch.cuda.set_device(0)  # want "CFL003 `torch\\.cuda\\.set_device\\(\\)` initializes CUDA before the process forks at `iter\\(loader\\)`"
    prefetcher = Prefetcher(get_data_loader(list(range(64)), 4, None))
    print(prefetcher.next())
