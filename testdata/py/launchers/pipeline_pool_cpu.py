"""Look-alike of pipeline_pool.py with the pipeline on the CPU (device=-1):
nothing initializes CUDA, so the forked workers are fine."""
import multiprocessing as mp

from transformers import pipeline

classifier = pipeline("sentiment-analysis", model="distilbert-base-uncased-finetuned-sst-2-english", device=-1)


def label(text):
    return classifier(text)[0]["label"]


if __name__ == "__main__":
    with mp.Pool(4) as pool:
        print(pool.map(label, ["great", "awful", "fine", "meh"]))
