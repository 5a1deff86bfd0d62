"""Answer visual questions with a LLaVA-style checkpoint. The loader
returns (tokenizer, model, image_processor, context_len); the image
processor is an attribute of the vision tower the loader moved to the GPU,
and stays None for a language-only checkpoint. The loader's workers open
each image and preprocess it with that processor on the CPU: reading the
processor from a GPU module does not touch the device, so no error. The
look-alike dataset runs the vision tower on each image in the workers,
whose weights are on the GPU: those workers fail."""
import json
import sys

import torch
from peft import PeftModel
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from transformers import AutoModelForCausalLM, AutoTokenizer


def load_pretrained_model(model_path, model_base=None, device="cuda"):
    tokenizer = AutoTokenizer.from_pretrained(model_path, use_fast=False)
    if model_base is not None:
        model = AutoModelForCausalLM.from_pretrained(model_base, torch_dtype=torch.float16, device_map="auto")  # want "CFL003 .*DataLoader workers.*could not tell whether `self.image_processor` is on the GPU"
        model = PeftModel.from_pretrained(model, model_path).merge_and_unload()
    else:
        model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=torch.float16, device_map="auto")  # want "CFL001 .*DataLoader workers.*uses CUDA \\(.*get_vision_tower`, line 70\\)"

    image_processor = None
    if "llava" in model_path.lower():
        vision_tower = model.get_vision_tower()
        vision_tower.to(device=device, dtype=torch.float16)
        image_processor = vision_tower.image_processor

    if hasattr(model.config, "max_sequence_length"):
        context_len = model.config.max_sequence_length
    else:
        context_len = 2048
    return tokenizer, model, image_processor, context_len


def process_images(images, image_processor):
    return image_processor.preprocess(images, return_tensors="pt")["pixel_values"]


class Questions(Dataset):
    def __init__(self, questions, tokenizer, image_processor, context_len):
        self.questions = questions
        self.tokenizer = tokenizer
        self.image_processor = image_processor
        self.context_len = context_len

    def __len__(self):
        return len(self.questions)

    def __getitem__(self, i):
        line = self.questions[i]
        image = Image.open(line["image"]).convert("RGB")
        pixels = process_images([image], self.image_processor)[0]
        ids = self.tokenizer(line["text"], max_length=self.context_len, return_tensors="pt").input_ids[0]
        return ids, pixels


class EncodedQuestions(Questions):
    def __init__(self, questions, tokenizer, image_processor, context_len, model):
        super().__init__(questions, tokenizer, image_processor, context_len)
        self.model = model

    def __getitem__(self, i):
        ids, pixels = super().__getitem__(i)
        with torch.no_grad():
            return ids, self.model.get_vision_tower()(pixels.unsqueeze(0))


def answer(model_path, questions, model_base=None):
    tokenizer, model, image_processor, context_len = load_pretrained_model(model_path, model_base)
    for ids, pixels in DataLoader(Questions(questions, tokenizer, image_processor, context_len), num_workers=4):
        output = model.generate(ids.cuda(), images=pixels.half().cuda(), max_new_tokens=128)
        print(tokenizer.batch_decode(output, skip_special_tokens=True)[0])


def answer_from_features(model_path, questions):
    tokenizer, model, image_processor, context_len = load_pretrained_model(model_path)
    dataset = EncodedQuestions(questions, tokenizer, image_processor, context_len, model)
    for ids, features in DataLoader(dataset, num_workers=4):
        print(model.generate(ids.cuda(), image_features=features, max_new_tokens=128).shape)


if __name__ == "__main__":
    with open(sys.argv[2]) as f:
        qs = [json.loads(q) for q in f]
    if sys.argv[1] == "features":
        answer_from_features(sys.argv[3], qs)
    else:
        answer(sys.argv[3], qs, sys.argv[4] if len(sys.argv) > 4 else None)
