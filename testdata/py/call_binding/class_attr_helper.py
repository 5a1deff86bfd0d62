"""The dataset keeps its loader function as a class attribute and calls it
on self with the path alone: Python binds the instance to the function's
first parameter, as it does a method's, so the call binds and the workers
forked after the parent's CUDA setup put the audio on the GPU."""
import torch
from torch.utils.data import DataLoader, Dataset


def load_clip(dataset, path):
    return torch.load(path).cuda()


class ClipDataset(Dataset):
    load = load_clip

    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.load(self.paths[i])


def train():
    torch.cuda.set_device(0)  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`\\.cuda\\(\\)`, line 10\\)"
    model = torch.nn.Linear(16, 1).cuda()
    for batch in DataLoader(ClipDataset(["a.pt", "b.pt"]), batch_size=2, num_workers=4):
        model(batch)


if __name__ == "__main__":
    train()
