"""A library dataset whose code cannot be seen is assumed CPU-only."""
import torch
import torchvision
from torch.utils.data import DataLoader

if __name__ == "__main__":
    net = torchvision.models.resnet18().cuda()  # want "CFL003 .*dataset code could not be seen and is assumed CPU-only"
    data = torchvision.datasets.FakeData(size=32, transform=torchvision.transforms.ToTensor())
    for images, labels in DataLoader(data, batch_size=8, num_workers=4):
        net(images.cuda())
