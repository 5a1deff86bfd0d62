"""A dict config read as an object inside a constructor whose call is
guarded: the AttributeError is caught and the script goes on with a
default model, so its top-level DataLoader still starts workers that
re-import it."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

train_config = {"bs": 8, "gradient_checkpoint": True}


class Model(nn.Module):
    def __init__(self, training_config):
        super().__init__()
        self.layer = nn.Linear(16, 16)
        self.gradient_checkpointing = training_config.gradient_checkpointing

    def forward(self, x):
        return self.layer(x)


try:
    model = Model(train_config)
except AttributeError:
    model = nn.Linear(16, 16)
model = model.cuda()  # want "CFL004" "CFL003"
loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=8, num_workers=4)
for (x,) in loader:  # want "CFL005"
    model(x.cuda())
