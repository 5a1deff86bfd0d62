"""A toolkit whose helpers load on first use (PEP 562)."""
import importlib

_HELPERS = {"Object": ".helpers", "Container": ".helpers"}


def __getattr__(name):
    if name in _HELPERS:
        return getattr(importlib.import_module(_HELPERS[name], __name__), name)
    raise AttributeError(name)
