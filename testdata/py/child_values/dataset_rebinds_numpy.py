"""A dataset that builds its masks with numpy and rebinds the name to a
tensor of them (DETR's ConvertCocoPolysToMask shape): the tensor is on the
CPU, so torch.zeros(..., device=masks.device) in the worker is too. The
parent's model on the GPU makes this the benign fork."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def masks_to_boxes(masks):
    if masks.numel() == 0:
        return torch.zeros((0, 4), device=masks.device)
    return masks.float().sum(dim=(1, 2))


class Panoptic(Dataset):
    def __getitem__(self, idx):
        masks = np.zeros((2, 4, 4), dtype=np.uint8)
        masks = torch.as_tensor(masks, dtype=torch.uint8)
        return masks_to_boxes(masks)

    def __len__(self):
        return 4


if __name__ == "__main__":
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 .*the children never touch CUDA"
    for boxes in DataLoader(Panoptic(), batch_size=2, num_workers=2):
        print(boxes.shape)
