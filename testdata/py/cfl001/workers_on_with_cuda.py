"""The look-alike that fails: workers are started when a GPU is there, and
the parent has already initialized CUDA when the loader forks them."""
import torch
from torch.utils.data import DataLoader, Dataset


class Volumes(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.full((4, 4), i, device=torch.cuda.current_device())


def evaluate():
    workers = 2 if torch.cuda.is_available() else 0
    for batch in DataLoader(Volumes(), num_workers=workers):
        print(batch.mean())


if __name__ == "__main__":
    model = torch.nn.Linear(4, 4).cuda()  # want "CFL001 .*DataLoader workers.*the child uses CUDA"
    evaluate()
    print(model)
