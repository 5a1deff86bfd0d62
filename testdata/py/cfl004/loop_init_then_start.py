"""A benchmark with no main guard that resets the GPU's peak memory at the
start of each pass, before its spawn DataLoader workers start. A worker
re-importing the script resets it too, initializing CUDA, before it reaches
the loader of the first pass and raises there."""
import torch
from torch.utils.data import DataLoader, TensorDataset

num_workers = 8
dataset = TensorDataset(torch.randn(1024, 32), torch.randint(0, 10, (1024,)))
loader = DataLoader(dataset, batch_size=64, num_workers=num_workers, multiprocessing_context="spawn")

results = {}
for width in (64, 128, 256):
    torch.cuda.reset_peak_memory_stats()  # want "CFL004 .*every child started at `loader`"
    model = torch.nn.Sequential(torch.nn.Linear(32, width), torch.nn.ReLU(), torch.nn.Linear(width, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    results[width] = torch.cuda.max_memory_allocated()
print(results)
