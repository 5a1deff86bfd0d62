"""Device helpers installed with setattr on this module, by a constant name
and by forwarding another module's attributes."""
import sys

from . import gpu_helpers

thismod = sys.modules[__name__]
setattr(thismod, "default_device", "cuda")
for name in ("warm_up", "host_only"):
    setattr(thismod, name, getattr(gpu_helpers, name))
