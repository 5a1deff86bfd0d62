"""Serves the plugin; each request is handled in a forked process."""
import os

import torch

# checktest reads no configuration; check does not report it (ignore = ["CFL001"]).
from asr_plugin.model import RECOGNIZER  # want "CFL001 .*`asr_plugin\\.model`.*model\\.py:4"


def handle(request):
    print(request, RECOGNIZER(torch.zeros(80, device="cuda")).argmax().item())


if __name__ == "__main__":
    for request in ["a", "b"]:
        pid = os.fork()
        if pid == 0:
            handle(request)
            os._exit(0)
        os.waitpid(pid, 0)
