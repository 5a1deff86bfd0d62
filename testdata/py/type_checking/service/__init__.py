"""Serving helpers. The offload callback is named here for type checkers
only: `typing.TYPE_CHECKING` is False when the program runs, so importing
the package never imports `service.offload`."""
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .offload import ActivationOffload
else:
    ActivationOffload = "service.offload.ActivationOffload"


def describe(request):
    return f"request {request}"
