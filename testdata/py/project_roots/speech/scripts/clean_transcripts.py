"""Cleans transcripts in a pool: the package module it imports is pure Python."""
import multiprocessing as mp
import sys

from speech.text import clean

if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(clean, sys.argv[1:]))
