"""A benchmark with no main guard: for each width it trains with spawn
DataLoader workers, then reads and resets the GPU's peak memory. A worker
re-importing the script starts its own loader's workers in the first pass of
the loop, raises there, and never reaches the memory calls after them: only
the start is a hazard."""
import torch
from torch.utils.data import DataLoader, TensorDataset

num_workers = 8
dataset = TensorDataset(torch.randn(1024, 32), torch.randint(0, 10, (1024,)))
loader = DataLoader(dataset, batch_size=64, num_workers=num_workers, multiprocessing_context="spawn")

results = {}
for width in (64, 128, 256):
    model = torch.nn.Sequential(torch.nn.Linear(32, width), torch.nn.ReLU(), torch.nn.Linear(width, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    results[width] = torch.cuda.max_memory_allocated()
    torch.cuda.reset_peak_memory_stats()
print(results)
