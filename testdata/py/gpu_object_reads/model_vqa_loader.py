"""Answers the questions of a VQA benchmark with a LLaVA-style model. The
loader's workers open each image and preprocess it with the image
processor the builder returns beside the GPU model: a CLIPImageProcessor,
read from the vision tower, that resizes and normalizes on the CPU. The
workers touch no CUDA; the processor read from a GPU object could be a
tensor as far as the analysis can see, so it says what it could not tell
(a warning), never an error."""
import argparse
import json
import os

import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from vqa_builder import load_pretrained_model, process_images


class CustomDataset(Dataset):
    def __init__(self, questions, image_folder, tokenizer, image_processor, model_config):
        self.questions = questions
        self.image_folder = image_folder
        self.tokenizer = tokenizer
        self.image_processor = image_processor
        self.model_config = model_config

    def __getitem__(self, index):
        line = self.questions[index]
        image = Image.open(os.path.join(self.image_folder, line["image"])).convert("RGB")
        image_tensor = process_images([image], self.image_processor, self.model_config)[0]
        input_ids = self.tokenizer(line["text"], return_tensors="pt").input_ids[0]
        return input_ids, image_tensor

    def __len__(self):
        return len(self.questions)


def eval_model(args):
    model_path = os.path.expanduser(args.model_path)
    model_name = os.path.basename(model_path.rstrip("/"))
    tokenizer, model, image_processor, context_len = load_pretrained_model(model_path, args.model_base, model_name)

    questions = [json.loads(q) for q in open(os.path.expanduser(args.question_file))]
    dataset = CustomDataset(questions, args.image_folder, tokenizer, image_processor, model.config)
    data_loader = DataLoader(dataset, batch_size=1, num_workers=4, shuffle=False)
    with open(args.answers_file, "w") as ans_file:
        for (input_ids, image_tensor), line in zip(data_loader, questions):
            with torch.inference_mode():
                output_ids = model.generate(
                    input_ids.to(device="cuda", non_blocking=True),
                    images=image_tensor.to(dtype=torch.float16, device="cuda", non_blocking=True),
                    max_new_tokens=128,
                )
            text = tokenizer.batch_decode(output_ids, skip_special_tokens=True)[0].strip()
            ans_file.write(json.dumps({"question_id": line["question_id"], "text": text}) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-path", type=str, default="liuhaotian/llava-v1.5-7b")
    parser.add_argument("--model-base", type=str, default=None)
    parser.add_argument("--image-folder", type=str, default="")
    parser.add_argument("--question-file", type=str, default="question.jsonl")
    parser.add_argument("--answers-file", type=str, default="answer.jsonl")
    eval_model(parser.parse_args())
