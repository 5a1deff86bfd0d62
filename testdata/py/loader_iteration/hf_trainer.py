"""transformers' Trainer makes its own DataLoader in train() from the dataset
and TrainingArguments.dataloader_num_workers."""
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


def main():
    dataset = load_dataset("imdb", split="train")
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
    args = TrainingArguments(output_dir="out", dataloader_num_workers=4)  # want "CFL003 `transformers\\.TrainingArguments\\(\\)` initializes CUDA before the process forks at `trainer\\.train\\(\\)` \\(line 12: DataLoader workers"
    trainer = Trainer(model=model, args=args, train_dataset=dataset)
    trainer.train()


if __name__ == "__main__":
    main()
