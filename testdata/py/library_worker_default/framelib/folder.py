"""A dataset over a folder of videos: it counts each video's frames once,
when it is made, through a DataLoader with as many workers as the caller
asks for (by default none), and never more workers than videos."""
import os

from torch.utils.data import DataLoader, Dataset


class _FrameCounts(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        with open(self.paths[index], "rb") as f:
            return len(f.read())


def count_frames(root, num_workers: int = 0):
    paths = sorted(os.path.join(root, name) for name in os.listdir(root))
    num_workers = min(num_workers, len(paths))
    if len(paths) == 1:
        num_workers = 0
    loader = DataLoader(_FrameCounts(paths), num_workers=num_workers, batch_size=None)
    return list(loader)


class VideoFolder:
    def __init__(self, root, transform=None, num_workers_frame_counting: int = 0):
        self.root = root
        self.transform = transform
        self.num_workers_frame_counting = num_workers_frame_counting
        self.frame_counts = count_frames(root, num_workers=self.num_workers_frame_counting)

    def __len__(self):
        return sum(self.frame_counts)
