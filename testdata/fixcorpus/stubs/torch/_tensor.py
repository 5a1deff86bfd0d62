"""Tensor: a flat list of floats with a shape of one or two dimensions."""
import random as _random

float32 = "float32"
int64 = "int64"

_rng = _random.Random(0)


def manual_seed(seed):
    _rng.seed(seed)


class device:
    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        name, _, idx = str(type).partition(":")
        if name not in ("cpu", "cuda"):
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {type}")
        self.type = name
        self.index = int(idx) if idx else index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other):
        if isinstance(other, (str, device)):
            return str(self) == str(device(other))
        return NotImplemented

    def __hash__(self):
        return hash(str(self))


def _device_of(args, kwargs, default):
    d = kwargs.get("device")
    for a in args:
        if isinstance(a, (str, device)):
            d = a
    return device(d) if d is not None else default


class Tensor:
    def __init__(self, values, shape, dev=None):
        self._v = [float(x) for x in values]
        self.shape = tuple(shape)
        self.device = device(dev) if dev is not None else device("cpu")
        self.grad = None

    # moving between "devices"
    def to(self, *args, **kwargs):
        return Tensor(self._v, self.shape, _device_of(args, kwargs, self.device))

    def cuda(self, device=None):
        return self.to("cuda")

    def cpu(self):
        return self.to("cpu")

    def detach(self):
        return self

    def float(self):
        return self

    # shape
    def dim(self):
        return len(self.shape)

    def size(self, d=None):
        return self.shape if d is None else self.shape[d]

    def numel(self):
        return len(self._v)

    def __len__(self):
        return self.shape[0]

    def _rows(self):
        n = self.shape[1]
        return [Tensor(self._v[i * n:(i + 1) * n], (n,), self.device) for i in range(self.shape[0])]

    def __iter__(self):
        if self.dim() == 2:
            return iter(self._rows())
        return iter(Tensor([x], (), self.device) for x in self._v)

    def __getitem__(self, i):
        if self.dim() == 2:
            return self._rows()[i]
        return Tensor([self._v[i]], (), self.device)

    # values
    def item(self):
        if len(self._v) != 1:
            raise RuntimeError("a Tensor with %d elements cannot be converted to Scalar" % len(self._v))
        return self._v[0]

    def tolist(self):
        if self.dim() == 0:
            return self._v[0]
        if self.dim() == 2:
            return [r.tolist() for r in self._rows()]
        return list(self._v)

    def sum(self):
        return Tensor([sum(self._v)], (), self.device)

    def mean(self):
        return Tensor([sum(self._v) / len(self._v)], (), self.device)

    def argmax(self):
        return Tensor([max(range(len(self._v)), key=self._v.__getitem__)], (), self.device)

    def backward(self):
        pass

    def __float__(self):
        return self.item()

    def __repr__(self):
        extra = "" if self.device.type == "cpu" else f", device='{self.device}'"
        return f"tensor({_fmt(self.tolist())}{extra})"

    # arithmetic: a scalar, or a tensor of the same shape
    def _zip(self, other, op):
        if isinstance(other, Tensor):
            if other.shape == () or other.numel() == 1:
                o = other._v[0]
                return Tensor([op(a, o) for a in self._v], self.shape, self.device)
            if other.shape != self.shape:
                raise RuntimeError(f"shapes {self.shape} and {other.shape} do not match")
            return Tensor([op(a, b) for a, b in zip(self._v, other._v)], self.shape, self.device)
        return Tensor([op(a, other) for a in self._v], self.shape, self.device)

    def __add__(self, o):
        return self._zip(o, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, o):
        return self._zip(o, lambda a, b: a - b)

    def __mul__(self, o):
        return self._zip(o, lambda a, b: a * b)

    __rmul__ = __mul__

    def __truediv__(self, o):
        return self._zip(o, lambda a, b: a / b)

    def __pow__(self, o):
        return self._zip(o, lambda a, b: a ** b)

    def __neg__(self):
        return self * -1


def _fmt(v):
    if isinstance(v, list):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return f"{v:.4f}"


def _flatten(data):
    if isinstance(data, Tensor):
        return data._v, data.shape
    if isinstance(data, (list, tuple)):
        if data and isinstance(data[0], (list, tuple, Tensor)):
            rows = [_flatten(r) for r in data]
            return [x for r, _ in rows for x in r], (len(data),) + rows[0][1]
        return [float(x) for x in data], (len(data),)
    return [float(data)], ()


def is_tensor(x):
    return isinstance(x, Tensor)


def tensor(data, dtype=None, device=None):
    values, shape = _flatten(data)
    return Tensor(values, shape, device)


def _shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    n = 1
    for s in size:
        n *= s
    return tuple(size), n


def ones(*size, device=None, dtype=None):
    shape, n = _shape(size)
    return Tensor([1.0] * n, shape, device)


def zeros(*size, device=None, dtype=None):
    shape, n = _shape(size)
    return Tensor([0.0] * n, shape, device)


def full(size, fill_value, device=None, dtype=None):
    shape, n = _shape((size,))
    return Tensor([fill_value] * n, shape, device)


def arange(n, device=None, dtype=None):
    return Tensor(range(n), (n,), device)


def randn(*size, device=None, dtype=None):
    shape, n = _shape(size)
    return Tensor([_rng.gauss(0, 1) for _ in range(n)], shape, device)


def stack(tensors):
    tensors = list(tensors)
    return Tensor([x for t in tensors for x in t._v], (len(tensors),) + tensors[0].shape, tensors[0].device)


class no_grad:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn
