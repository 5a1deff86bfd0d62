"""Evaluation loaders built by detectron2's @configurable, which fills the
builder's arguments from the config: build_test_loader(cfg) leaves
num_workers at its default, 0, but the decorator passes the config's worker
count, so the default tells nothing and the workers are reported. The
debug loader's lru_cache calls it with the arguments as written: its
default, 0, starts no workers."""
import functools

import torch
from detectron2.config import configurable
from detectron2.data import DatasetCatalog
from torch.utils.data import DataLoader


def _test_loader_from_config(cfg):
    return {
        "dataset": DatasetCatalog.get(cfg.DATASETS.TEST[0]),
        "num_workers": cfg.DATALOADER.NUM_WORKERS,
    }


@configurable(from_config=_test_loader_from_config)
def build_test_loader(dataset, *, num_workers=0):
    return DataLoader(dataset, batch_size=2, num_workers=num_workers)


@functools.lru_cache(maxsize=None)
def build_debug_loader(dataset, *, num_workers=0):
    return DataLoader(dataset, batch_size=2, num_workers=num_workers)


def inference(model, loader):
    for batch in loader:
        model(batch)


def evaluate(cfg):
    model = torch.nn.Linear(2, 2).cuda()  # want "CFL003 .*forks at `loader`.*DataLoader workers"
    inference(model, build_test_loader(cfg))


def debug(dataset):
    model = torch.nn.Linear(2, 2).cuda()
    inference(model, build_debug_loader(dataset))
