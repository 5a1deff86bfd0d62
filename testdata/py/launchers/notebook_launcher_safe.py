"""Look-alikes of notebook_launcher_after_init.py that work: nothing touches CUDA
before the launch (the children initialize it themselves), and a later
launch with one process runs the function in place, with no fork."""
import torch
from accelerate import notebook_launcher


def training_function(lr):
    model = torch.nn.Linear(16, 2).to("cuda")
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    loss = model(torch.randn(8, 16, device="cuda")).sum()
    loss.backward()
    optimizer.step()


notebook_launcher(training_function, (0.1,), num_processes=2)

print(torch.cuda.get_device_name(0))
notebook_launcher(training_function, (0.01,), num_processes=1)
