"""What every backend provides."""


def cuda():
    """The first GPU."""


def cpu():
    """The host."""


def tensor(data):
    """A tensor on the host."""
