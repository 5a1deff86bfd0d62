"""A GPU test module: its skip condition asks torch.cuda.is_available()
when pytest imports it, and a test tokenizes with datasets' map with
num_proc=2, which forks a pool. pytest calls the tests, not this code, so
each is checked as an entry of its own; map is an everyday name, and the
keyword is what tells this call from the builtin's."""
import pytest
import torch
from datasets import load_dataset


def count_words(batch):
    return {"words": [len(text.split()) for text in batch["text"]]}


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")  # want `CFL003 .*forks at .reviews\.map`
class TestTokenize:
    def test_map_with_workers(self):
        reviews = load_dataset("imdb", split="train")
        reviews = reviews.map(count_words, batched=True, num_proc=2)
        assert len(reviews) > 0

    def test_builtin_map(self):
        assert list(map(str, [1, 2])) == ["1", "2"]
