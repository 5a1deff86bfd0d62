"""Embedding a corpus with datasets' map(num_proc=4) after the encoder was put on
the GPU in the parent: map forks a multiprocess pool on Linux on every Python
(multiprocess keeps fork as its default on 3.14 and 3.15), and each worker
calls the inherited CUDA model."""
import datasets
from sentence_transformers import SentenceTransformer

encoder = SentenceTransformer("sentence-transformers/all-MiniLM-L6-v2", device="cuda")  # want "CFL001 `sentence_transformers\\.SentenceTransformer\\(\\)`.*Pool workers, the default \"fork\" start method.*uses CUDA.*Python 3\\.11–3\\.15 on Linux"


def embed(batch):
    batch["embedding"] = encoder.encode(batch["text"])
    return batch


if __name__ == "__main__":
    corpus = datasets.load_dataset("imdb", split="train")
    corpus = corpus.map(embed, batched=True, num_proc=4)
    corpus.save_to_disk("imdb-embedded")
