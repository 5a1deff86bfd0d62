"""
Checkpointing and resuming a training run
=========================================
A sphinx-gallery example with no main guard. Both runs pass
`test_loaders={}`: only the training loader is iterated (inside the
trainer), and under the 3.14 forkserver each of its workers re-imports this
script. The test loaders the helper built are never iterated.
"""
import torch

from neuralop_mini import load_darcy_flow_small
from neuralop_mini import Trainer

train_loader, test_loaders, data_processor = load_darcy_flow_small(
    n_train=1000,
    batch_size=16,
    test_resolutions=[16, 32],
    n_tests=[100, 50],
    test_batch_sizes=[32, 32],
)

model = torch.nn.Conv2d(1, 1, 3, padding=1)
optimizer = torch.optim.Adam(model.parameters(), lr=8e-3)
l2loss = torch.nn.MSELoss()

trainer = Trainer(model=model, n_epochs=20)
trainer.train(train_loader=train_loader, test_loaders={}, optimizer=optimizer, loss=l2loss)  # want "CFL005 Children are started at `enumerate\\(train_loader\\)` \\(trainer.py:19: DataLoader workers, the default \"forkserver\" start method\\) at import time"
torch.save(model.state_dict(), "checkpoints/model_state_dict.pt")

model.load_state_dict(torch.load("checkpoints/model_state_dict.pt"))
resumed = Trainer(model=model, n_epochs=5)
resumed.train(train_loader=train_loader, test_loaders={}, optimizer=optimizer, loss=l2loss)
