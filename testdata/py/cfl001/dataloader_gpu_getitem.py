"""A dataset that builds its samples on the GPU inside the worker processes."""
import torch
from torch.utils.data import DataLoader, Dataset


class GpuNoise(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.randn(8, device="cuda").cpu()


def train():
    model = torch.nn.Linear(8, 1).to("cuda")  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`torch\\.randn\\(\\)`.*Python 3\\.11–3\\.13"
    loader = DataLoader(GpuNoise(), batch_size=8, num_workers=2)
    for batch in loader:
        model(batch.cuda())


if __name__ == "__main__":
    train()
