"""DETR's shapes: the dataset builds its masks in an if arm (numpy, then a
tensor of them), and the collate_fn transposes the batch with zip(*batch)
and pads each image with zeros on the image's own device. Everything the
workers make is on the CPU: with the model on the GPU, a benign fork."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def masks_to_boxes(masks):
    if masks.numel() == 0:
        return torch.zeros((0, 4), device=masks.device)
    return masks.float().sum(dim=(1, 2))


def pad_images(images):
    padded = []
    for img in images:
        mask = torch.zeros_like(img[0], dtype=torch.int, device=img.device)
        padded.append((img, mask))
    return padded


def collate_fn(batch):
    batch = list(zip(*batch))
    batch[0] = pad_images(batch[0])
    return tuple(batch)


class Panoptic(Dataset):
    def __init__(self, annotations):
        self.annotations = annotations

    def __getitem__(self, idx):
        ann = self.annotations[idx]
        if "segments_info" in ann:
            masks = np.asarray(ann["png"], dtype=np.uint32)
            masks = masks == np.array(ann["segments_info"])[:, None, None]
            masks = torch.as_tensor(masks, dtype=torch.uint8)
        return torch.ones(3, 4, 4), masks_to_boxes(masks)

    def __len__(self):
        return len(self.annotations)


if __name__ == "__main__":
    model = torch.nn.Conv2d(3, 8, 3).cuda()  # want "CFL003 .*the children never touch CUDA"
    anns = [{"png": np.zeros((4, 4)), "segments_info": [0, 1]}] * 8
    for images, boxes in DataLoader(Panoptic(anns), batch_size=2, num_workers=2, collate_fn=collate_fn):
        print(len(images), boxes)
