"""The course notebook (chapter 3, section 4) as a script: an early cell checks
for a GPU, a later one launches the training on two GPUs. notebook_launcher
forks its children (start_method="fork"); accelerate 1.15 refuses only when
an Accelerator already exists, not after torch.cuda.is_available(), and both
children die with "Cannot re-initialize CUDA in forked subprocess"
(measured: launchers.json)."""
import torch
from accelerate import Accelerator, notebook_launcher

device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")  # want "CFL001 `torch\\.cuda\\.is_available\\(\\)`.*notebook_launcher.*uses CUDA"


def training_function():
    accelerator = Accelerator()
    model = torch.nn.Linear(16, 2).to(accelerator.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = accelerator.prepare(model, optimizer)
    for _ in range(3):
        loss = model(torch.randn(8, 16, device=accelerator.device)).sum()
        accelerator.backward(loss)
        optimizer.step()


notebook_launcher(training_function, num_processes=2)
