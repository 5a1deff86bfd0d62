"""Look-alike of accelerate_train_workers.py on the CPU: Accelerator(cpu=True)
initializes nothing (measured), so the forked workers inherit no CUDA state."""
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator(cpu=True)
    model = torch.nn.Linear(4, 1).to(accelerator.device)
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    loader = accelerator.prepare(DataLoader(data, batch_size=8, num_workers=2))
    for x, y in loader:
        accelerator.backward(torch.nn.functional.mse_loss(model(x), y))


if __name__ == "__main__":
    main()
