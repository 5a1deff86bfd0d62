"""Scoring a dataset at the top level of a script after the model was moved to
the GPU: map(num_proc=4) forks a multiprocess Pool on Linux on every Python
(multiprocess keeps fork as its default on 3.14 and 3.15), and each worker
calls the inherited CUDA model."""
import torch
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased-finetuned-sst-2-english")
model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased-finetuned-sst-2-english")
model = model.to("cuda")  # want "CFL001 `\\.to\\(\\)`.*the default \"fork\" start method.*uses CUDA.*Python 3\\.11–3\\.15 on Linux"


def score(batch):
    inputs = tokenizer(batch["text"], return_tensors="pt", padding=True).to("cuda")
    with torch.no_grad():
        batch["logits"] = model(**inputs).logits.tolist()
    return batch


reviews = load_dataset("imdb", split="test")
reviews = reviews.map(score, batched=True, num_proc=4)
reviews.save_to_disk("imdb-scored")
