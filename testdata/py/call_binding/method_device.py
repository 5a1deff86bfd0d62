"""The helper is a method of the dataset, called on self with every
argument: self binds the first parameter, the call binds, and the workers
forked after the parent's CUDA setup put the features on the GPU."""
import torch
from torch.utils.data import DataLoader, Dataset


class SpeechDataset(Dataset):
    def __init__(self, texts):
        self.texts = texts

    def __len__(self):
        return len(self.texts)

    def text_features(self, text, device, *, dim=4):
        return torch.ones(len(text), dim).to(device)

    def __getitem__(self, i):
        try:
            return torch.load(f"cache/{i}.pt")
        except FileNotFoundError:
            return self.text_features(self.texts[i], "cuda", dim=4)


def train():
    torch.cuda.set_device(0)  # want "CFL001 .*DataLoader workers.*uses CUDA"
    model = torch.nn.Linear(4, 1).cuda()
    for batch in DataLoader(SpeechDataset(["a", "b"]), batch_size=2, num_workers=4):
        model(batch.cuda())


if __name__ == "__main__":
    train()
