"""A document OCR model in the transformers style: a PreTrainedModel
subclass whose from_pretrained goes through the library's, moved to the
GPU by a helper. What the children do with it is decided by the model's
own methods: the loader's workers preprocess pages with the encoder's CPU
step and tokenize with the decoder's tokenizer, and the scoring Pool gets
the decoded strings inference returns: none touches CUDA. The look-alikes
run the encoder, or inference and so the forward pass, in a worker, and
hand the Pool the raw logits of the forward pass, all on the GPU: those
children fail."""
import sys
from multiprocessing import Pool

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from transformers import AutoTokenizer, PreTrainedModel


class PageEncoder(torch.nn.Module):
    def __init__(self, size):
        super().__init__()
        self.size = size
        self.proj = torch.nn.Linear(size * size, 256)

    def prepare_input(self, img):
        img = img.convert("L").resize((self.size, self.size))
        return torch.from_numpy(np.asarray(img, dtype=np.float32)).flatten()

    def forward(self, pixels):
        return self.proj(pixels)


class TextDecoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.tokenizer = AutoTokenizer.from_pretrained("facebook/nougat-base")
        self.head = torch.nn.Linear(256, 1000)

    def forward(self, features):
        return self.head(features)


class OCRModel(PreTrainedModel):
    def __init__(self, config):
        super().__init__(config)
        self.encoder = PageEncoder(config.image_size)
        self.decoder = TextDecoder()

    @classmethod
    def from_pretrained(cls, path, **kwargs):
        model = super(OCRModel, cls).from_pretrained(path, **kwargs)
        model.config.max_length = kwargs.get("max_length", 512)
        return model

    def forward(self, pixels):
        return self.decoder(self.encoder(pixels))

    def inference(self, pixels):
        logits = self.forward(pixels)
        ids = logits.argmax(-1).tolist()
        return {"predictions": self.decoder.tokenizer.batch_decode(ids, skip_special_tokens=True)}


def move_to_device(model, bf16=True):
    if bf16:
        model = model.to(torch.bfloat16)
    if torch.cuda.is_available():  # want "CFL003 .*DataLoader workers.*and 1 other place; the children never touch CUDA"
        model = model.to("cuda")
    return model


class Pages(Dataset):
    def __init__(self, samples, model):
        self.samples = samples
        self.model = model

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        path, text = self.samples[i]
        pixels = self.model.encoder.prepare_input(Image.open(path))
        ids = self.model.decoder.tokenizer(text, return_tensors="pt")["input_ids"].squeeze(0)
        return pixels, ids


class EncodedPages(Pages):
    def __getitem__(self, i):
        path, _ = self.samples[i]
        with torch.no_grad():
            return self.model.encoder(self.model.encoder.prepare_input(Image.open(path)))


class CaptionedPages(Pages):
    def __getitem__(self, i):
        path, _ = self.samples[i]
        pixels = self.model.encoder.prepare_input(Image.open(path))
        return self.model.inference(pixels)["predictions"]


def edit_distance(prediction, truth):
    return sum(a != b for a, b in zip(prediction, truth)) + abs(len(prediction) - len(truth))


def top_token(logits):
    return int(logits.argmax())


def evaluate(checkpoint, samples):
    model = move_to_device(OCRModel.from_pretrained(checkpoint))
    for pixels, ids in DataLoader(Pages(samples, model), batch_size=2, num_workers=2):
        predictions = model.inference(pixels.cuda())["predictions"]
        truths = model.decoder.tokenizer.batch_decode(ids)
        with Pool(2) as pool:
            print(pool.starmap(edit_distance, zip(predictions, truths)))


def encode_in_workers(checkpoint, samples):
    model = OCRModel.from_pretrained(checkpoint).to(torch.bfloat16).to("cuda")  # want "CFL001 .*DataLoader workers.*uses CUDA \\(.*line 92\\)"
    for features in DataLoader(EncodedPages(samples, model), batch_size=2, num_workers=2):
        print(features.shape)


def caption_in_workers(checkpoint, samples):
    model = OCRModel.from_pretrained(checkpoint).half().to("cuda")  # want "CFL001 .*DataLoader workers.*uses CUDA \\(.*line 57\\)"
    for captions in DataLoader(CaptionedPages(samples, model), batch_size=2, num_workers=2):
        print(captions)


def score_logits(checkpoint, pixels):
    model = OCRModel.from_pretrained(checkpoint).eval().cuda()  # want "CFL001 .*Pool workers.*uses CUDA \\(CUDA objects passed to the child, line 135\\)"
    logits = model(pixels.cuda())
    with Pool(2) as pool:
        print(pool.map(top_token, logits))


if __name__ == "__main__":
    command, checkpoint = sys.argv[1], sys.argv[2]
    pages = [("page0.png", "Abstract"), ("page1.png", "Introduction")]
    if command == "evaluate":
        evaluate(checkpoint, pages)
    elif command == "encode":
        encode_in_workers(checkpoint, pages)
    elif command == "caption":
        caption_in_workers(checkpoint, pages)
    else:
        score_logits(checkpoint, torch.zeros(2, 1024))
