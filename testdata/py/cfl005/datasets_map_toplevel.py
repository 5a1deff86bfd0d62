"""Preprocessing at the top level of a training script with datasets'
map(num_proc=4): the workers are a multiprocess Pool, whose default context
forks on Linux on every Python (3.14 and 3.15 too, unlike multiprocessing's
forkserver), so the children never re-import this script."""
from datasets import load_dataset
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")


def tokenize(examples):
    return tokenizer(examples["text"], truncation=True, max_length=512)


raw = load_dataset("wikitext", "wikitext-2-raw-v1", split="train")
tokenized = raw.map(tokenize, batched=True, num_proc=4, remove_columns=["text"])
tokenized = tokenized.filter(lambda ex: len(ex["input_ids"]) > 8, num_proc=4)
tokenized.save_to_disk("wikitext-tokenized")
