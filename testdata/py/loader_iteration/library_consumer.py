"""A loader handed to a library call whose result is dropped is assumed to be
iterated there (ignite's Engine.run iterates its data); one only wrapped by
a library call and never iterated forks nothing."""
import torch
from ignite.engine import create_supervised_trainer
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.datapipes.iter import IterableWrapper

data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))


def run_ignite():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*forks at `trainer\\.run\\(loader, max_epochs=2\\)` \\(line 16"
    trainer = create_supervised_trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), torch.nn.MSELoss(), device="cuda")
    trainer.run(loader, max_epochs=2)


def wrap_only():
    loader = DataLoader(data, batch_size=8, num_workers=2)
    torch.cuda.init()
    pipe = IterableWrapper(loader)
    return pipe
