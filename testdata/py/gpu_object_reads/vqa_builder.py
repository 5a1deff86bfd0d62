"""Loads a LLaVA-style checkpoint for the evaluation scripts beside it:
the language model on the GPU, its tokenizer, and the image processor of
its vision tower (a CLIPImageProcessor: resizing and normalizing on the
CPU), which stays None for a language-only checkpoint."""
import torch
from peft import PeftModel
from transformers import AutoModelForCausalLM, AutoTokenizer


def load_pretrained_model(model_path, model_base, model_name, device="cuda"):
    if model_base is not None:
        tokenizer = AutoTokenizer.from_pretrained(model_base, use_fast=False)
        model = AutoModelForCausalLM.from_pretrained(model_base, low_cpu_mem_usage=True, torch_dtype=torch.float16, device_map="auto")  # want "CFL003 .*model_vqa_loader\\.py:\\d+: DataLoader workers.*could not tell whether `self\\.image_processor` is on the GPU" "CFL001 .*extract_image_features\\.py:\\d+: DataLoader workers.*the child uses CUDA \\(`.*get_vision_tower`, extract_image_features\\.py:27\\)"
        model = PeftModel.from_pretrained(model, model_path).merge_and_unload()
    else:
        tokenizer = AutoTokenizer.from_pretrained(model_path, use_fast=False)
        model = AutoModelForCausalLM.from_pretrained(model_path, low_cpu_mem_usage=True, torch_dtype=torch.float16, device_map="auto")

    image_processor = None
    if "llava" in model_name.lower():
        vision_tower = model.get_vision_tower()
        if not vision_tower.is_loaded:
            vision_tower.load_model()
        vision_tower.to(device=device, dtype=torch.float16)
        image_processor = vision_tower.image_processor

    if hasattr(model.config, "max_sequence_length"):
        context_len = model.config.max_sequence_length
    else:
        context_len = 2048
    return tokenizer, model, image_processor, context_len


def process_images(images, image_processor, model_cfg):
    if getattr(model_cfg, "image_aspect_ratio", None) == "pad":
        mean = tuple(int(x * 255) for x in image_processor.image_mean)
        images = [expand2square(image, mean) for image in images]
        return torch.stack([image_processor.preprocess(image, return_tensors="pt")["pixel_values"][0] for image in images])
    return image_processor(images, return_tensors="pt")["pixel_values"]


def expand2square(image, background):
    width, height = image.size
    if width == height:
        return image
    side = max(width, height)
    result = image.new(image.mode, (side, side), background)
    result.paste(image, ((side - width) // 2, (side - height) // 2))
    return result
