"""Serial stand-ins for the pool helpers: no processes."""


def fork_map(fn, items):
    return [fn(i) for i in items]


def _fork_each(fn, items):
    return [fn(i) for i in items]
