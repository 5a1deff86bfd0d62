"""A package whose __all__ names a submodule it does not import itself:
`from gpu_pkg import *` imports it."""
__all__ = ["warmup"]
