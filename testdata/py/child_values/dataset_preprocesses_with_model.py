"""Evaluate an OCR model whose pages are preprocessed by the encoder's own
CPU step (resize, to a tensor) and tokenized by the decoder's tokenizer,
both reached through the model the parent moved to the GPU. The workers
call methods of the model's parts, not its forward: the preprocessing
step's body touches no device, and the tokenizer is no module, so no
error. The look-alike dataset encodes
each page in the workers with the encoder's forward, whose weights are
on the GPU: those workers fail."""
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from transformers import AutoTokenizer


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(32, 32)

    def prepare_input(self, img):
        img = img.convert("L").resize((32, 32))
        return torch.from_numpy(np.asarray(img, dtype=np.float32))

    def forward(self, x):
        return self.proj(x)


class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.tokenizer = AutoTokenizer.from_pretrained("facebook/nougat-base")
        self.head = torch.nn.Linear(32, 100)


class OCRModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()
        self.max_length = 512


class Pages(Dataset):
    def __init__(self, samples, model):
        self.samples = samples
        self.model = model

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        path, text = self.samples[i]
        pixels = self.model.encoder.prepare_input(Image.open(path))
        ids = self.model.decoder.tokenizer(text, max_length=self.model.max_length, return_tensors="pt")
        return pixels, ids["input_ids"].squeeze(0)


class EncodedPages(Pages):
    def __getitem__(self, i):
        path, _ = self.samples[i]
        pixels = self.model.encoder.prepare_input(Image.open(path))
        with torch.no_grad():
            return self.model.encoder(pixels)


def evaluate(samples):
    model = OCRModel().to("cuda")  # want "CFL003 .*DataLoader workers.*the children never touch CUDA" "CFL001 .*DataLoader workers.*uses CUDA \\(.*line 64\\)"
    for pixels, ids in DataLoader(Pages(samples, model), batch_size=4, num_workers=4):
        print(model.encoder(pixels.cuda()).shape, ids.shape)
    for features in DataLoader(EncodedPages(samples, model), batch_size=4, num_workers=4):
        print(features.shape)


if __name__ == "__main__":
    evaluate([("page0.png", "Abstract"), ("page1.png", "Introduction")])
