"""dlsym lookups whose answer depends on the caller must answer the same under the wrapper:
RTLD_NEXT from a library loaded RTLD_GLOBAL after it (nothing follows it: NULL), and
RTLD_DEFAULT from a library loaded RTLD_LOCAL (its own dependencies are in its scope)."""
import ctypes
import os
import sys

import fakecu

libdir = sys.argv[1]
nxt = ctypes.CDLL(os.path.join(libdir, "librtldnext.so"), mode=ctypes.RTLD_GLOBAL)
dflt = ctypes.CDLL(os.path.join(libdir, "librtlddef.so"), mode=ctypes.RTLD_LOCAL)
print("RTLD_NEXT probe", nxt.rtldnext_probe(), flush=True)
print("RTLD_DEFAULT probe", dflt.rtlddef_probe(), flush=True)
fakecu.Driver("dlsym").init()
fakecu.probe("parent")
