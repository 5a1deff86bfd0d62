"""Caches the vision tower's features of a VQA benchmark's images. The
look-alike of model_vqa_loader.py: its loader's workers do not stop at
preprocessing, they run the vision tower of the model the builder moved
to the GPU on each image, and those forked workers fail."""
import argparse
import json
import os

import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from vqa_builder import load_pretrained_model, process_images


class ImageFeatures(Dataset):
    def __init__(self, questions, image_folder, image_processor, model):
        self.questions = questions
        self.image_folder = image_folder
        self.image_processor = image_processor
        self.model = model

    def __getitem__(self, index):
        line = self.questions[index]
        image = Image.open(os.path.join(self.image_folder, line["image"])).convert("RGB")
        pixels = process_images([image], self.image_processor, self.model.config)
        with torch.no_grad():
            return line["question_id"], self.model.get_vision_tower()(pixels.half())

    def __len__(self):
        return len(self.questions)


def cache_features(args):
    model_name = os.path.basename(args.model_path.rstrip("/"))
    _, model, image_processor, _ = load_pretrained_model(args.model_path, args.model_base, model_name)
    questions = [json.loads(q) for q in open(args.question_file)]
    loader = DataLoader(ImageFeatures(questions, args.image_folder, image_processor, model), num_workers=4)
    for question_id, features in loader:
        torch.save(features, os.path.join(args.output, f"{question_id.item()}.pt"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-path", type=str, default="liuhaotian/llava-v1.5-7b")
    parser.add_argument("--model-base", type=str, default=None)
    parser.add_argument("--image-folder", type=str, default="")
    parser.add_argument("--question-file", type=str, default="question.jsonl")
    parser.add_argument("--output", type=str, default="features")
    cache_features(parser.parse_args())
