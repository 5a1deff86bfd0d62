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


def flagged_loader(dataset, use_workers):
    # num_workers is 0 or 4: a store in an if may run.
    options = {"num_workers": 0, "batch_size": 8}
    if use_workers:
        options["num_workers"] = 4
    return DataLoader(dataset, **options)


def train_flagged(flag):
    torch.cuda.init()  # want "CFL003 `torch\\.cuda\\.init\\(\\)` initializes CUDA before the process forks at `flagged_loader\\(list\\(range\\(8\\)\\), flag\\)`"
    for batch in flagged_loader(list(range(8)), flag):
        print(batch)


def timm_loader(dataset):
    # timm's create_loader: the workers in dict(...), the rest by update().
    loader_args = dict(num_workers=4, pin_memory=True)
    loader_args.update(batch_size=8, shuffle=False)
    return DataLoader(dataset, **loader_args)


def evaluate():
    torch.cuda.init()  # want "CFL003 `torch\\.cuda\\.init\\(\\)` initializes CUDA before the process forks at `enumerate\\(timm_loader\\(list\\(range\\(8\\)\\)\\)\\)`"
    for i, batch in enumerate(timm_loader(list(range(8)))):
        print(i, batch)
