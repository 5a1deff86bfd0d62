"""torch.nn: Module, Linear, ReLU, Sequential, deterministic weights."""
from torch._tensor import Tensor, device as _device
from torch.nn import functional


class Parameter(Tensor):
    pass


class Module:
    training = True

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def _children(self):
        return [(k, v) for k, v in vars(self).items() if isinstance(v, (Tensor, Module))]

    def to(self, *args, **kwargs):
        for k, v in self._children():
            setattr(self, k, v.to(*args, **kwargs))
        return self

    def cuda(self, device=None):
        return self.to("cuda")

    def cpu(self):
        return self.to("cpu")

    def parameters(self):
        for _, v in self._children():
            if isinstance(v, Tensor):
                yield v
            else:
                yield from v.parameters()

    def train(self, mode=True):
        self.training = mode
        return self

    def eval(self):
        return self.train(False)

    def zero_grad(self):
        pass


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        self.in_features, self.out_features = in_features, out_features
        w = [((o * in_features + i) % 7 - 3) / 10 for o in range(out_features) for i in range(in_features)]
        self.weight = Parameter(w, (out_features, in_features))
        self.bias = Parameter([(o % 3) / 10 for o in range(out_features)], (out_features,)) if bias else None

    def _row(self, x):
        n = self.in_features
        out = []
        for o in range(self.out_features):
            acc = sum(self.weight._v[o * n + i] * x[i] for i in range(n))
            out.append(acc + (self.bias._v[o] if self.bias is not None else 0.0))
        return out

    def forward(self, x):
        if x.dim() == 2:
            rows = [self._row(r._v) for r in x]
            return Tensor([v for r in rows for v in r], (len(rows), self.out_features), x.device)
        return Tensor(self._row(x._v), (self.out_features,), x.device)


class ReLU(Module):
    def forward(self, x):
        return Tensor([max(0.0, v) for v in x._v], x.shape, x.device)


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def _children(self):
        return [(str(i), l) for i, l in enumerate(self.layers)]

    def to(self, *args, **kwargs):
        self.layers = [l.to(*args, **kwargs) for l in self.layers]
        return self

    def forward(self, x):
        for l in self.layers:
            x = l(x)
        return x
