"""The diffusers training-script shape: Accelerator() picks the GPU (cuInit, with
torch.cuda.is_initialized() still False), the model moves to
accelerator.device, and the DataLoader forks its workers when the loop
iterates it. The workers only decode and augment on the CPU: a benign fork
(CFL003), anchored at the Accelerator."""
import argparse

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class Captions(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.randn(3, 64, 64), i % 10


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mixed_precision", default="bf16")
    args = parser.parse_args()
    accelerator = Accelerator(mixed_precision=args.mixed_precision)  # want "CFL003 `accelerate\\.Accelerator\\(\\)`.*DataLoader workers.*never touch CUDA"
    model = torch.nn.Conv2d(3, 8, 3).to(accelerator.device)
    optimizer = torch.optim.AdamW(model.parameters())
    loader = DataLoader(Captions(256), batch_size=16, shuffle=True, num_workers=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for images, labels in loader:
        loss = model(images).mean()
        accelerator.backward(loss)
        optimizer.step()


if __name__ == "__main__":
    main()
