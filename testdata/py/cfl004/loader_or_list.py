"""The script iterates spawn DataLoader workers for a large dataset and a
plain list of batches for a small one. A worker re-importing the script
starts its own workers only where it picks the loader; where it picks the
list it goes on past the loop and initializes CUDA again."""
import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(1024, 32))
if len(dataset) > 512:
    batches = DataLoader(dataset, batch_size=64, num_workers=4, multiprocessing_context="spawn")
else:
    batches = [dataset.tensors]

total = 0.0
for (x,) in batches:  # want "CFL005 .*stops with RuntimeError while bootstrapping"
    total += float(x.sum())

torch.cuda.reset_peak_memory_stats()  # want "CFL004 .*every child started at `batches`"
print(total)
