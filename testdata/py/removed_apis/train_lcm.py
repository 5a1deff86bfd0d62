"""Rounds its logging interval with fractions.gcd while the script is
imported: an AttributeError from Python 3.9 on, so the script runs on 3.8 at
the newest and its DataLoader workers are forked."""
import fractions

import torch
from torch.utils.data import DataLoader, TensorDataset

BATCH_SIZE, PRINT_EVERY = 4, 10
PRINT_EVERY = PRINT_EVERY * BATCH_SIZE // fractions.gcd(PRINT_EVERY, BATCH_SIZE)

torch.cuda.set_device(0)  # want "CFL003 .*Python 3\\.11 on Linux"

loader = DataLoader(TensorDataset(torch.randn(32, 3)), batch_size=BATCH_SIZE, num_workers=2)
for step, (x,) in enumerate(loader):
    if step % PRINT_EVERY == 0:
        print(x.cuda().sum())
