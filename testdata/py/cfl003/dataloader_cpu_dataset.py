"""The usual training loop: CPU dataset, batches moved to the GPU in the parent.
Works, but every epoch forks the workers from a CUDA-initialized parent."""
import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 128

    def __getitem__(self, i):
        return torch.tensor([float(i)]), torch.tensor([float(i * i)])


if __name__ == "__main__":
    model = torch.nn.Linear(1, 1).cuda()  # want "CFL003 .*DataLoader workers.*the children never touch CUDA.*Python 3\\.11–3\\.13"
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    loader = DataLoader(Squares(), batch_size=16, shuffle=True, num_workers=2)
    for epoch in range(2):
        for x, y in loader:
            loss = ((model(x.cuda()) - y.cuda()) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
