"""The language-modeling notebook shape: TrainingArguments (a CUDA context at
construction, measured) before tokenizing with map(num_proc=4). The workers
only tokenize: a benign fork (CFL003). With num_proc=1 map runs in place."""
from datasets import load_dataset
from transformers import AutoTokenizer, TrainingArguments

tokenizer = AutoTokenizer.from_pretrained("gpt2")


def tokenize(examples):
    return tokenizer(examples["text"])


def main():
    args = TrainingArguments(output_dir="clm", per_device_train_batch_size=8)  # want "CFL003 `transformers\\.TrainingArguments\\(\\)`.*Pool workers.*never touch CUDA"
    raw = load_dataset("wikitext", "wikitext-2-raw-v1")
    tokenized = raw.map(tokenize, batched=True, num_proc=4, remove_columns=["text"])
    small = raw["validation"].filter(lambda ex: len(ex["text"]) > 0, num_proc=1)
    print(args.output_dir, tokenized, small)


if __name__ == "__main__":
    main()
