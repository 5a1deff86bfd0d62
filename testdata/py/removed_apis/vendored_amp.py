"""A vendored copy of an old mixed-precision helper, from before torch 2.0."""
import contextlib

from torch._six import string_classes


@contextlib.contextmanager
def scale_loss(loss):
    if isinstance(loss, string_classes):
        raise TypeError("loss must be a tensor")
    yield loss * 128.0
