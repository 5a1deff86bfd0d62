"""The experiment comes from a module named on the command line, which the
model cannot find; main's annotation says it is an Experiment, whose train
moves the model to the GPU and then iterates a loader with forked workers
(YOLOX's tools/train.py)."""
import importlib
import sys

import torch
from torch.utils.data import DataLoader


class Experiment:
    workers = 4

    def get_loader(self):
        return DataLoader(list(range(64)), batch_size=8, num_workers=self.workers)

    def train(self):
        model = torch.nn.Linear(1, 1).cuda()  # want "CFL003 `\\.cuda\\(\\)` initializes CUDA before the process forks at `self\\.get_loader\\(\\)`"
        for batch in self.get_loader():
            model(batch.float().unsqueeze(1).cuda())


def load(name):
    return importlib.import_module(name).Experiment()


def main(exp: Experiment):
    exp.train()


if __name__ == "__main__":
    main(load(sys.argv[1]))
