"""torch.cuda on the CPU: one pretend device; initialization is only a flag."""
import collections as _collections

_initialized = False


def _lazy_init():
    global _initialized
    _initialized = True


def is_available():
    _lazy_init()
    return True


def init():
    _lazy_init()


def is_initialized():
    return _initialized


def device_count():
    return 1


def current_device():
    _lazy_init()
    return 0


def set_device(device):
    _lazy_init()


def synchronize(device=None):
    _lazy_init()


def get_device_name(device=None):
    return "CPU stand-in"


_Props = _collections.namedtuple("_CudaDeviceProperties", "name total_memory major minor multi_processor_count")


def get_device_properties(device):
    _lazy_init()
    return _Props("CPU stand-in", 0, 0, 0, 1)


def memory_allocated(device=None):
    return 0


def empty_cache():
    pass


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass
