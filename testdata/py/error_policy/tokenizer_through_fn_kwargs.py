"""datasets.map forks its workers (num_proc) after accelerate set up the
GPU; each worker calls the tokenizer it was handed through fn_kwargs, whose
code the analysis cannot see: a warning that says so, not an error."""
from accelerate import PartialState
from datasets import load_dataset
from transformers import AutoTokenizer


def tokenize(example, tokenizer):
    return tokenizer(example["text"], truncation=True)


if __name__ == "__main__":
    state = PartialState()  # want "CFL003 .*the child calls `tokenizer`, whose code could not be seen"
    tok = AutoTokenizer.from_pretrained("gpt2")
    ds = load_dataset("imdb", split="train")
    ds = ds.map(tokenize, fn_kwargs={"tokenizer": tok}, num_proc=4)
