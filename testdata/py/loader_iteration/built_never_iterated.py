"""A loader built (and wrapped) after CUDA is initialized but never iterated
forks nothing: its workers start only when it is iterated."""
import torch
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

if __name__ == "__main__":
    model = torch.nn.Linear(4, 1).cuda()
    data = TensorDataset(torch.randn(64, 4))
    loader = DataLoader(data, batch_size=8, num_workers=2)
    progress = tqdm(loader)
    print(len(loader), len(progress), model)
