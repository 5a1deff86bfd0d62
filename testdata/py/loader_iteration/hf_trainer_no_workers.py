"""dataloader_num_workers defaults to 0: the Trainer's loader starts no
workers, and nothing forks."""
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

if __name__ == "__main__":
    dataset = load_dataset("imdb", split="train")
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=dataset)
    trainer.train()
