"""Training on points a dataset samples on the GPU itself, so that each
worker uses CUDA. The script hands a dict to a helper that registers the
loaders in it, then iterates what the helper stored: the analysis does not
follow a dict filled by the function it is handed to, so the workers are
taken to start where each loader is made. That start is assumed, not seen:
the fork after CUDA is a warning naming what could not be seen, not an
error."""
import torch
from torch.utils.data import DataLoader, Dataset


class GPUPoints(Dataset):
    def __len__(self):
        return 256

    def __getitem__(self, i):
        return torch.randn(3, device="cuda")


def register_loaders(registry, splits, num_workers=2):
    for split in splits:
        registry[split] = DataLoader(GPUPoints(), batch_size=32, num_workers=num_workers)


def main():
    model = torch.nn.Linear(3, 1).cuda()  # want "CFL003 `\\.cuda\\(\\)` initializes CUDA before the process forks at `DataLoader\\(GPUPoints\\(\\), batch_size=32, num_wo\\.\\.\\.` \\(line 22: DataLoader workers, the default \"fork\" start method; it is kept in a container the analysis does not follow, where it may be iterated later\\); the child uses CUDA"
    loaders = {}
    register_loaders(loaders, ["train", "val"])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for points in loaders["train"]:
        optimizer.zero_grad()
        model(points).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
