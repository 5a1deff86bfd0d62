"""MONAI's DataLoader (a subclass of torch's, num_workers second) after the
network was moved to the GPU: the workers run the CPU transforms, a benign
fork (CFL003)."""
import torch
from monai.data import DataLoader, Dataset
from monai.networks.nets import UNet
from monai.transforms import Compose, EnsureChannelFirst, LoadImage, ScaleIntensity


def main(files):
    net = UNet(spatial_dims=3, in_channels=1, out_channels=2, channels=(16, 32), strides=(2,)).cuda()  # want "CFL003 `\\.cuda\\(\\)`.*DataLoader workers.*assumed CPU-only"
    transforms = Compose([LoadImage(image_only=True), EnsureChannelFirst(), ScaleIntensity()])
    loader = DataLoader(Dataset(files, transforms), 4, batch_size=2)
    for batch in loader:
        print(net(batch.cuda()).shape)


if __name__ == "__main__":
    main(["a.nii.gz", "b.nii.gz"])
