"""accelerate's prepare returns the loader (wrapped, in argument order); the
workers start where the prepared loader is iterated, every epoch. Accelerator()
runs cuInit: the first initialization, the one reported."""
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()  # want "CFL003 `accelerate\\.Accelerator\\(\\)` initializes CUDA before the process forks at `enumerate\\(train_dataloader\\)` \\(line 18"
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_dataloader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8, num_workers=2)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    if torch.cuda.is_available():
        print("training on", torch.cuda.get_device_name())
    for epoch in range(3):
        for step, (x,) in enumerate(train_dataloader):
            accelerator.backward(model(x).sum())
            optimizer.step()


if __name__ == "__main__":
    main()
