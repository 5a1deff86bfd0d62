"""A training loop with DataLoader workers that put their samples on the GPU,
and the default start method ("fork" up to Python 3.13), after the model went
to the GPU; the fix gives the loader multiprocessing_context="spawn"."""
# fixcorpus: CFL001 unsafe
import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([float(i), float(i * i)]).cuda()


if __name__ == "__main__":
    model = torch.nn.Linear(2, 1).cuda()
    loader = DataLoader(Squares(6), batch_size=2, num_workers=2)
    for batch in loader:
        print(model(batch).tolist())
