"""Embed a corpus on fork workers after the GPU was picked.

Each worker drains a stack of pending sections: encode_next() pushes the
parts of a nested section and drains them through encode_rest(), which
calls encode_next() back. Titles go through encode_next(), bodies through
encode_rest(): both reach `.cuda()` in the children.
"""
import multiprocessing as mp

import torch

PENDING = []


def encode_next():
    doc = PENDING.pop()
    if isinstance(doc, list):
        PENDING.extend(doc)
        return encode_rest()
    return torch.tensor([len(doc)]).cuda()


def encode_rest():
    return [encode_next() for _ in range(len(PENDING))]


def title_worker(title):
    PENDING.append(title)
    return encode_next()


def body_worker(sections):
    PENDING.extend(sections)
    return encode_rest()


if __name__ == "__main__":
    torch.cuda.init()  # want "CFL001 .*and 1 other place; the child uses CUDA"
    with mp.get_context("fork").Pool(2) as pool:
        titles = pool.map(title_worker, ["intro", "method"])
    with mp.get_context("fork").Pool(2) as pool:
        bodies = pool.map(body_worker, [["a", "b"], ["c"]])
