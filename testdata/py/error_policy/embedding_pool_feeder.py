"""Embedding a corpus on every GPU with sentence-transformers' multi-process
pool, fed by a forked process: the pool's workers are spawned, and the
feeder only puts sentences on the pool's queues and reads the embeddings
back, so the fork touches no GPU even though the parent loaded the model on
one."""
import multiprocessing
import sys

import torch
from sentence_transformers import SentenceTransformer


def feed(pool, sentences, out):
    embeddings = model.encode_multi_process(sentences, pool=pool, batch_size=64)
    out.put(embeddings.shape)


if __name__ == "__main__":
    model = SentenceTransformer(sys.argv[1])  # want "CFL003 .*could not tell whether the objects passed to the child are on the GPU"
    devices = ["cuda:" + str(i) for i in range(torch.cuda.device_count())]
    pool = model.start_multi_process_pool(devices)
    results = multiprocessing.Queue()
    feeder = multiprocessing.Process(target=feed, args=(pool, ["a sentence"] * 1000, results))
    feeder.start()
    print(results.get())
    feeder.join()
    model.stop_multi_process_pool(pool)
