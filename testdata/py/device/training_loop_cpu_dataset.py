"""The standard training loop: the model is on the GPU, the dataset builds
CPU tensors and calls tensor methods on them in the workers. Measured benign
(probes-2026-12: 10 runs of 10 clean with 4 workers), so CFL003, not CFL001."""
import torch
from torch.utils.data import DataLoader, Dataset


class Pairs(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        x = torch.tensor([i, i + 1]).float()  # a CPU tensor: no CUDA here
        y = torch.zeros(2).sum().item()
        return x.contiguous(), torch.as_tensor([y]).float()


def collate(batch):
    xs = torch.stack([x for x, _ in batch]).float()
    ys = torch.cat([y for _, y in batch]).numpy()
    return xs, torch.from_numpy(ys).long()


if __name__ == "__main__":
    model = torch.nn.Linear(2, 1).cuda()  # want "CFL003 .*DataLoader workers.*the children never touch CUDA"
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in DataLoader(Pairs(), batch_size=8, num_workers=2, collate_fn=collate):
        loss = (model(x.cuda()).squeeze() - y.cuda()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
