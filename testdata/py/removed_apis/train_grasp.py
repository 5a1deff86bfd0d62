"""A script that puts its sibling directories on sys.path and imports its
dataset from there: the dataset module imports torch._six, so the script
runs on Python 3.11 at the newest."""
import os
import sys

import torch
from torch.utils.data import DataLoader

ROOT_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(ROOT_DIR, "dataset"))
from grasp_dataset import GraspDataset, collate_fn

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")  # want "CFL003 .*Python 3\\.11 on Linux"

loader = DataLoader(GraspDataset(), batch_size=4, num_workers=2, collate_fn=collate_fn)
for batch in loader:
    print(batch.to(device).shape)
