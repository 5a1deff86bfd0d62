"""The same training script with the config wrapped in an EasyDict, a dict
subclass whose keys are attributes: the constructor runs, and the top-level
DataLoader's workers re-import the script and initialize CUDA again."""
import torch
from easydict import EasyDict
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

train_config = EasyDict({
    "bs": 8,
    "num_workers": 2,
    "gradient_checkpointing": True,
})


class Model(nn.Module):
    def __init__(self, training_config):
        super().__init__()
        self.train_config = training_config
        self.layer = nn.Linear(16, 16)
        self.gradient_checkpointing = self.train_config.gradient_checkpointing

    def forward(self, x):
        return self.layer(x)


model = Model(train_config).cuda()  # want "CFL004" "CFL003"
loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=train_config.bs, num_workers=4)
for (x,) in loader:  # want "CFL005"
    model(x.cuda())
