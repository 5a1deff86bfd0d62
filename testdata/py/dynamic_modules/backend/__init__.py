"""The test suite's tensor backend, chosen at run time as DGL's tests choose
theirs: the module is imported by a computed name, and its functions are
copied into this namespace by a computed key."""
import importlib
import os

from . import interface

backend_name = os.environ.get("TEST_BACKEND")

mod = importlib.import_module(".%s" % backend_name, __name__)

for api in interface.__dict__.keys():
    if api.startswith("__"):
        continue
    globals()[api] = mod.__dict__[api]
