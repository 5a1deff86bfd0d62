"""Look-alikes: the unpacked options start no workers (num_workers=0 set
after the display), or choose spawn through dict(...)."""
import torch
from torch.utils.data import DataLoader


def inline_loader(dataset):
    options = {"num_workers": 4, "batch_size": 8}
    options["num_workers"] = 0
    return DataLoader(dataset, **options)


def spawn_loader(dataset):
    options = dict(num_workers=4, multiprocessing_context="spawn")
    return DataLoader(dataset, **options)


if __name__ == "__main__":
    torch.cuda.set_device(0)
    for batch in inline_loader(list(range(64))):
        print(batch)
    for batch in spawn_loader(list(range(64))):
        print(torch.as_tensor(batch).cuda().sum())


def popped_loader(dataset):
    options = {"num_workers": 4, "batch_size": 8}
    options.pop("num_workers")
    return DataLoader(dataset, **options)


def run_popped():
    torch.cuda.init()
    for batch in popped_loader(list(range(64))):
        print(batch)
