"""DataLoader without workers loads in the main process: nothing forks."""
import torch
from torch.utils.data import DataLoader, TensorDataset

if __name__ == "__main__":
    model = torch.nn.Linear(2, 1).cuda()
    for (x,) in DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=4, num_workers=0):
        model(x.cuda())
