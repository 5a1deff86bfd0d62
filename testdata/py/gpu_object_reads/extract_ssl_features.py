"""Extracts the encoder features of a self-supervised speech model for
every file of a manifest. The model is a training checkpoint saved as
(model, config), or a .nemo archive; a LightningModule wrapper keeps its
preprocessor, its encoder and its sample rate, and is moved to the GPU.
The dataset is built from a config dict that carries the sample rate read
from the wrapper, and its workers only compare it with each file's rate:
the rate is an int, and the workers touch no CUDA. The analysis cannot
tell an attribute of a GPU object from a tensor, whether the object is a
library path or a value it knows only by its device (an element of the
checkpoint): it says so (a warning), never an error. The look-alike
computes the features in the workers, with the wrapper on the GPU: those
workers fail."""
import argparse
import json

import lightning.pytorch as pl
import numpy as np
import soundfile as sf
import torch
from nemo.collections.asr.models import EncDecDenoiseMaskedTokenPredModel
from torch.utils.data import DataLoader, Dataset


class AudioDataset(Dataset):
    def __init__(self, manifest_filepath, sample_rate):
        with open(manifest_filepath) as f:
            self.items = [json.loads(line) for line in f]
        self.sample_rate = sample_rate

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        audio, sr = sf.read(self.items[i]["audio_filepath"], dtype="float32")
        if sr != self.sample_rate:
            raise ValueError(f"expected {self.sample_rate} Hz audio, got {sr}")
        return torch.from_numpy(audio), i


class EncodedAudio(AudioDataset):
    def __init__(self, manifest_filepath, feature_extractor):
        super().__init__(manifest_filepath, feature_extractor.sample_rate)
        self.feature_extractor = feature_extractor

    def __getitem__(self, i):
        audio, i = super().__getitem__(i)
        with torch.inference_mode():
            encoded, _ = self.feature_extractor(audio[None], torch.tensor([audio.size(0)]))
        return encoded[0].cpu(), i


def get_audio_dataset(config):
    return AudioDataset(config["manifest_filepath"], sample_rate=config["sample_rate"])


def load_model(model_path, device):
    if model_path.endswith(".ckpt"):
        model, _ = torch.load(model_path, map_location=device, weights_only=False)
        return model
    return EncDecDenoiseMaskedTokenPredModel.restore_from(model_path, map_location=device)


class FeatureExtractor(pl.LightningModule):
    def __init__(self, ssl_model):
        super().__init__()
        self.preprocessor = ssl_model.preprocessor
        self.encoder = ssl_model.encoder
        self.sample_rate = ssl_model.cfg.sample_rate

    def forward(self, signal, length):
        processed, processed_len = self.preprocessor(input_signal=signal, length=length)
        return self.encoder(audio_signal=processed, length=processed_len)


def extract_features(args):
    device = torch.device(args.device)
    feature_extractor = FeatureExtractor(load_model(args.model_path, device))
    feature_extractor.to(device)  # want "CFL003 .*DataLoader workers.*could not tell whether `self\\.sample_rate` is on the GPU"
    config = {"manifest_filepath": args.manifest, "sample_rate": feature_extractor.sample_rate}
    loader = DataLoader(get_audio_dataset(config), batch_size=args.batch_size, num_workers=args.workers)
    with torch.inference_mode():
        for signal, ids in loader:
            signal = signal.to(device)
            length = torch.full((signal.size(0),), signal.size(1), device=device)
            encoded, _ = feature_extractor(signal, length)
            for j, sid in enumerate(ids.tolist()):
                np.save(f"{args.output}/{sid}.npy", encoded[j].cpu().numpy())


def extract_features_in_workers(args):
    feature_extractor = FeatureExtractor(load_model(args.model_path, args.device)).to(args.device)  # want "CFL001 .*DataLoader workers.*the child uses CUDA \\(a CUDA object, line 48\\)"
    loader = DataLoader(EncodedAudio(args.manifest, feature_extractor), batch_size=args.batch_size, num_workers=args.workers)
    for encoded, ids in loader:
        for j, sid in enumerate(ids.tolist()):
            np.save(f"{args.output}/{sid}.npy", encoded[j].numpy())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--in_workers", action="store_true")
    args = parser.parse_args()
    if args.in_workers:
        extract_features_in_workers(args)
    else:
        extract_features(args)
