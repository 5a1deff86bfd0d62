"""A trainer base class reads its config as an object in setup(); the
subclass the script runs overrides setup() to read the dict it is given by
key. run() calls self.setup(), which runs the override: nothing raises, and
the top-level run starts DataLoader workers that re-import the script."""
import torch
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = torch.nn.Linear(16, 16).cuda()  # want "CFL004" "CFL003"

    def setup(self):
        return self.cfg.workers

    def run(self):
        workers = self.setup()
        loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=8, num_workers=4)
        for (x,) in loader:  # want "CFL005"
            self.model(x.cuda())
        return workers


class DictTrainer(Trainer):
    def setup(self):
        return self.cfg["workers"]


DictTrainer({"workers": 4}).run()
