"""A transformers pipeline on GPU 0 at import, then a Pool whose workers call it:
the forked workers inherit the CUDA model and fail."""
import multiprocessing as mp

from transformers import pipeline

classifier = pipeline("sentiment-analysis", model="distilbert-base-uncased-finetuned-sst-2-english", device=0)  # want "CFL001 `transformers\\.pipeline\\(\\)`.*Pool workers.*uses CUDA" "CFL002 .*Python 3\\.14" "CFL004 .*Python 3\\.14\\.0 on Linux"


def label(text):
    return classifier(text)[0]["label"]


if __name__ == "__main__":
    with mp.Pool(4) as pool:
        print(pool.map(label, ["great", "awful", "fine", "meh"]))
