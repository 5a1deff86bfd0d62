"""A loader builder behind detectron2's @configurable, which fills its
arguments from the config: num_workers defaults to 0, but the decorator
passes the config's worker count, so the default the call leaves tells
nothing and the workers are still reported."""
import torch
from detectron2.config import configurable
from torch.utils.data import DataLoader


def _loader_from_config(cfg, dataset):
    return {"dataset": dataset, "num_workers": cfg.DATALOADER.NUM_WORKERS}


@configurable(from_config=_loader_from_config)
def build_loader(dataset, num_workers=0):
    return DataLoader(dataset, batch_size=2, num_workers=num_workers)


def inference(model, loader):
    for batch in loader:
        model(batch)


def evaluate(cfg, dataset):
    model = torch.nn.Linear(2, 2).cuda()  # want "CFL003 .*forks at `loader`.*DataLoader workers"
    inference(model, build_loader(cfg, dataset))
