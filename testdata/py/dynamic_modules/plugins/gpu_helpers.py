import torch


def warm_up():
    torch.cuda.init()  # want "CFL001 `torch\\.cuda\\.init\\(\\)` initializes CUDA .*forks at `mp\\.Pool\\(2\\)` \\(plugin_worker\\.py:16: .*the child uses CUDA \\(`torch\\.ones\\(\\)`, plugin_worker\\.py:11\\)"


def host_only():
    return torch.zeros(2)
