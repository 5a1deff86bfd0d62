"""An example that needs its vendored amp package, which imports torch._six:
without it the script stops, so it too runs on torch 1.x alone."""
import torch
from torch.utils.data import DataLoader, TensorDataset

try:
    from vendored_amp import scale_loss
except ImportError:
    raise ImportError("Please install the vendored amp package to run this example.")

print("cuDNN", torch.backends.cudnn.version())  # want "CFL003 .*Python 3\\.11 on Linux"

loader = DataLoader(TensorDataset(torch.randn(32, 4)), batch_size=4, num_workers=4)
for (x,) in loader:
    with scale_loss(x.cuda().sum()) as loss:
        loss.backward()
