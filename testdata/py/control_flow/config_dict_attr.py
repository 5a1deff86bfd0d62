"""A training script whose config is a dict literal, while the model class
reads it as an object: `self.train_config.gradient_checkpointing` raises
AttributeError in the constructor on every Python, so the script dies at
`Model(...)` and never reaches its top-level DataLoader, and a spawn child's
re-import dies there too. Nothing is reported after it."""
import json
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

with open(sys.argv[1]) as f:
    ds_config = json.load(f)

train_config = {
    "bs": 8,
    "num_workers": 2,
    "gradient_checkpoint": True,
}


class Model(nn.Module):
    def __init__(self, ds_config, training_config):
        super().__init__()
        self.train_config = training_config
        self.layer = nn.Linear(16, 16)
        self.gradient_checkpointing = self.train_config.gradient_checkpointing

    def forward(self, x):
        return self.layer(x)


model = Model(ds_config, train_config).cuda()
loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=train_config["bs"], num_workers=4)
for (x,) in loader:
    model(x.cuda())
