"""A Python 2 and 3 helper from the torch 1.x days: `torch._six` is read as an
attribute of torch while the module is imported, an AttributeError on torch 2."""
import torch

if torch._six.PY3:
    import importlib.util

    def import_file(module_name, file_path):
        spec = importlib.util.spec_from_file_location(module_name, file_path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
else:
    import imp

    def import_file(module_name, file_path):
        return imp.load_source(module_name, file_path)
