"""Transcript normalization: pure Python."""


def clean(line):
    return " ".join(line.lower().split())
