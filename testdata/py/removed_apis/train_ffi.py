"""A torch 0.4 detector: its extension needs torch.utils.ffi, which torch 1.0
turned into an ImportError, so it runs on Python 3.7 at the newest. Older
than every target, it is checked where those Pythons behave alike: on the
oldest target, whose Linux forks by default."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from roi_ext import roi_pooling

gpu = torch.cuda.current_device()  # want "CFL003 .*Python 3\\.11 on Linux"

loader = DataLoader(TensorDataset(torch.randn(8, 3, 16, 16)), batch_size=2, num_workers=2)
for (images,) in loader:
    print(roi_pooling(images.cuda(gpu), torch.zeros(4, 5)).shape)
