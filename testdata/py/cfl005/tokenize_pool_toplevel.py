"""The same top-level tokenizing written with the standard library's Pool:
multiprocessing's default is forkserver on Linux from Python 3.14, whose
workers re-import this script and start a Pool of their own."""
import multiprocessing as mp

from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")


def tokenize(text):
    return tokenizer(text, truncation=True, max_length=512)["input_ids"]


lines = open("wikitext-2-raw.txt").read().splitlines()
with mp.Pool(4) as pool:  # want "CFL005 .*the default \"forkserver\" start method.*Python 3\\.14–3\\.15 on Linux"
    ids = pool.map(tokenize, lines)
print(sum(len(x) for x in ids))
