"""The config as a class instance, and a dict read through .get: both
attributes exist, the constructor runs, and the top-level DataLoader's
workers re-import the script."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class TrainConfig:
    def __init__(self, bs=8, gradient_checkpointing=False):
        self.bs = bs
        self.gradient_checkpointing = gradient_checkpointing


optim_config = {"lr": 1e-4, "warmup": 100}


class Model(nn.Module):
    def __init__(self, training_config, optim):
        super().__init__()
        self.train_config = training_config
        self.layer = nn.Linear(16, 16)
        self.gradient_checkpointing = self.train_config.gradient_checkpointing
        self.warmup = optim.get("warmup", 0)
        try:
            self.decay = optim.weight_decay
        except AttributeError:
            self.decay = 0.0

    def forward(self, x):
        return self.layer(x)


model = Model(TrainConfig(bs=16), optim_config).cuda()  # want "CFL004" "CFL003"
loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=16, num_workers=4)
for (x,) in loader:  # want "CFL005"
    model(x.cuda())
