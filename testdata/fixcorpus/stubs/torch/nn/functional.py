"""torch.nn.functional: the two functions the corpus uses."""
from torch._tensor import Tensor


def relu(x):
    return Tensor([max(0.0, v) for v in x._v], x.shape, x.device)


def mse_loss(a, b):
    d = a - b
    return (d * d).mean()
