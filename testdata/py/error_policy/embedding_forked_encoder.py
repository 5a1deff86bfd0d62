"""The same feeder encoding with the model itself instead of the pool: the
forked process computes with the model its parent loaded on the GPU."""
import multiprocessing
import sys

from sentence_transformers import SentenceTransformer


def feed(sentences, out):
    embeddings = model.encode(sentences, batch_size=64)
    out.put(embeddings.shape)


if __name__ == "__main__":
    model = SentenceTransformer(sys.argv[1])  # want "CFL001 `sentence_transformers\\.SentenceTransformer\\(\\)`.*a Process.*uses CUDA"
    results = multiprocessing.Queue()
    feeder = multiprocessing.Process(target=feed, args=(["a sentence"] * 1000, results))
    feeder.start()
    print(results.get())
    feeder.join()
