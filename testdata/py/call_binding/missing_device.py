"""A speech dataset that reads cached text features, and recomputes them
with a helper when the cache is missing. The fallback leaves out the
helper's required `device`, so it raises TypeError before the helper's body
runs: the workers forked after the parent's CUDA setup never touch CUDA."""
import torch
from torch.utils.data import DataLoader, Dataset


def text_features(text, device):
    if not device:
        device = "cuda"
    return torch.ones(len(text), 4).to(device)


class SpeechDataset(Dataset):
    def __init__(self, texts):
        self.texts = texts

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        try:
            return torch.load(f"cache/{i}.pt")
        except FileNotFoundError:
            return text_features(self.texts[i])


def train():
    torch.cuda.set_device(0)  # want "CFL003 .*DataLoader workers.*the children never touch CUDA"
    model = torch.nn.Linear(4, 1).cuda()
    for batch in DataLoader(SpeechDataset(["a", "b"]), batch_size=2, num_workers=4):
        model(batch.cuda())


if __name__ == "__main__":
    train()
