"""The feature helper looks one argument short where the dataset calls it,
but a decorator wraps it and supplies the device: the call binds the
wrapper, and the workers forked after the parent's CUDA setup put the
features on the GPU."""
import functools

import torch
from torch.utils.data import DataLoader, Dataset


def on_gpu(fn):
    @functools.wraps(fn)
    def wrapped(text):
        return fn(text, "cuda")
    return wrapped


@on_gpu
def text_features(text, device):
    return torch.ones(len(text), 4).to(device).cuda()


class SpeechDataset(Dataset):
    def __init__(self, texts):
        self.texts = texts

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return text_features(self.texts[i])


def train():
    torch.cuda.set_device(0)  # want "CFL001 .*DataLoader workers.*uses CUDA \\(`\\.cuda\\(\\)`, line 20\\)"
    model = torch.nn.Linear(4, 1).cuda()
    for batch in DataLoader(SpeechDataset(["a", "b"]), batch_size=2, num_workers=4):
        model(batch.cuda())


if __name__ == "__main__":
    train()
