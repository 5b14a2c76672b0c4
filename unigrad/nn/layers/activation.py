"""Activation functions as Cells (``nn.ReLU()`` and friends) and MindSpore's ``get_activation``.

Each Cell is a thin wrapper over the function of the same name. ``inplace=True``
writes the result into the input, as PyTorch does (the input must not be a leaf
that requires grad).

Example:
    >>> import unigrad as ug
    >>> ug.nn.LeakyReLU(0.1)(ug.tensor([-2.0, 3.0]))
    tensor([-0.2000,  3.0000])
    >>> ug.nn.get_activation("relu")
    ReLU()
"""

from __future__ import annotations

from ...ops import elementwise
from ...ops.nn_activations import elu, hardtanh, leaky_relu, log_softmax, logsigmoid, softmax
from ...tensor import Tensor
from ..cell import Cell
from ._common import real_number


def _inplace_text(inplace: bool) -> str:
    return "inplace=True" if inplace else ""


def _apply(function, input, inplace: bool, *args):
    """``function(input, *args)``, written into ``input`` when ``inplace``.

    The in-place path computes from a clone, so the values the function saved
    for its backward are not the ones overwritten (autograd sees a ``copy_``).
    """
    if not inplace:
        return function(input, *args)
    return input.copy_(function(input.clone(), *args))


class ReLU(Cell):
    """``max(x, 0)`` elementwise.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReLU()(ug.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = bool(inplace)

    def construct(self, input: Tensor) -> Tensor:
        return input.relu_() if self.inplace else elementwise.relu(input)

    def extra_repr(self) -> str:
        return _inplace_text(self.inplace)


class Hardtanh(Cell):
    """``x`` clamped to ``[min_val, max_val]``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Hardtanh(-0.5, 0.5)(ug.tensor([-1.0, 0.25, 1.0]))
        tensor([-0.5000,  0.2500,  0.5000])
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
        super().__init__()
        self.min_val = real_number(min_val, "min_val", type(self).__name__)
        self.max_val = real_number(max_val, "max_val", type(self).__name__)
        if self.min_val > self.max_val:
            raise ValueError("min_val cannot be greater than max_val")
        self.inplace = bool(inplace)

    def construct(self, input: Tensor) -> Tensor:
        return _apply(hardtanh, input, self.inplace, self.min_val, self.max_val)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace}"


class ReLU6(Hardtanh):
    """``min(max(x, 0), 6)`` elementwise.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReLU6()(ug.tensor([-1.0, 3.0, 9.0]))
        tensor([0., 3., 6.])
    """

    def __init__(self, inplace: bool = False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return _inplace_text(self.inplace)


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))`` elementwise.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Sigmoid()(ug.tensor([0.0]))
        tensor([0.5000])
    """

    def construct(self, input: Tensor) -> Tensor:
        return elementwise.sigmoid(input)


class Tanh(Cell):
    """Hyperbolic tangent elementwise.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Tanh()(ug.tensor([0.0]))
        tensor([0.])
    """

    def construct(self, input: Tensor) -> Tensor:
        return elementwise.tanh(input)


class GELU(Cell):
    """Gaussian error linear unit; ``approximate='tanh'`` uses the tanh formula.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.GELU()(ug.tensor([1.0]))
        tensor([0.8413])
        >>> ug.nn.GELU(approximate="tanh")
        GELU(approximate='tanh')
    """

    def __init__(self, approximate: str = "none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"approximate argument must be either none or tanh, "
                             f"got {approximate!r}")
        self.approximate = approximate

    def construct(self, input: Tensor) -> Tensor:
        return elementwise.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Cell):
    """``x * sigmoid(x)`` (swish) elementwise.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.SiLU()(ug.tensor([1.0]))
        tensor([0.7311])
    """

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = bool(inplace)

    def construct(self, input: Tensor) -> Tensor:
        return _apply(elementwise.silu, input, self.inplace)

    def extra_repr(self) -> str:
        return _inplace_text(self.inplace)


class LeakyReLU(Cell):
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    ``ug.nn.LeakyReLU`` keeps PyTorch's default slope 0.01 (MindSpore's
    ``alpha`` defaults to 0.2; ``alpha=`` is accepted as the slope).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.LeakyReLU()
        LeakyReLU(negative_slope=0.01)
        >>> ug.nn.LeakyReLU(alpha=0.2)(ug.tensor([-1.0]))
        tensor([-0.2000])
    """

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False, *,
                 alpha: float | None = None):
        super().__init__()
        if alpha is not None:
            negative_slope = alpha
        self.negative_slope = real_number(negative_slope, "negative_slope", "LeakyReLU")
        self.inplace = bool(inplace)

    def construct(self, input: Tensor) -> Tensor:
        return _apply(leaky_relu, input, self.inplace, self.negative_slope)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace}"


class ELU(Cell):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ELU(alpha=2.0)(ug.tensor([-100.0, 1.0]))
        tensor([-2.,  1.])
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha = real_number(alpha, "alpha", "ELU")
        self.inplace = bool(inplace)

    def construct(self, input: Tensor) -> Tensor:
        return _apply(elu, input, self.inplace, self.alpha)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace}"


class Softplus(Cell):
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Softplus()(ug.tensor([0.0, 30.0]))
        tensor([ 0.6931, 30.0000])
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta = real_number(beta, "beta", "Softplus")
        self.threshold = real_number(threshold, "threshold", "Softplus")

    def construct(self, input: Tensor) -> Tensor:
        return elementwise.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class LogSigmoid(Cell):
    """``log(sigmoid(x))`` computed stably.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.LogSigmoid()(ug.tensor([0.0]))
        tensor([-0.6931])
    """

    def construct(self, input: Tensor) -> Tensor:
        return logsigmoid(input)


class Softmax(Cell):
    """``exp(x) / sum(exp(x), dim)``.

    ``dim=None`` picks PyTorch's legacy implicit dimension (with its warning);
    MindSpore's ``axis=`` keyword is accepted as ``dim``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Softmax(dim=-1)(ug.tensor([[0.0, 0.0]]))
        tensor([[0.5000, 0.5000]])
    """

    def __init__(self, dim: int | None = None, *, axis: int | None = None):
        super().__init__()
        self.dim = axis if axis is not None else dim

    def construct(self, input: Tensor) -> Tensor:
        return softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """``log(softmax(x, dim))`` computed stably.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.LogSoftmax(dim=1)(ug.tensor([[0.0, 0.0]]))
        tensor([[-0.6931, -0.6931]])
    """

    def construct(self, input: Tensor) -> Tensor:
        return log_softmax(input, self.dim)


_ACTIVATIONS = {
    "relu": ReLU,
    "relu6": ReLU6,
    "tanh": Tanh,
    "sigmoid": Sigmoid,
    "gelu": lambda: GELU(approximate="tanh"),
    "silu": SiLU,
    "swish": SiLU,
    "elu": ELU,
    "leakyrelu": lambda: LeakyReLU(0.2),
    "softplus": Softplus,
    "logsigmoid": LogSigmoid,
    "softmax": lambda: Softmax(dim=-1),
    "logsoftmax": lambda: LogSoftmax(dim=-1),
    "hardtanh": Hardtanh,
}


def get_activation(name: str | None) -> Cell | None:
    """A new activation Cell from its MindSpore name (``None`` gives ``None``).

    Names (case-insensitive): ``relu``, ``relu6``, ``tanh``, ``sigmoid``,
    ``gelu``, ``silu``/``swish``, ``elu``, ``leakyrelu``, ``softplus``,
    ``logsigmoid``, ``softmax``, ``logsoftmax``, ``hardtanh``. MindSpore's
    defaults apply: ``gelu`` is the tanh approximation, ``leakyrelu`` has
    slope 0.2 and ``softmax``/``logsoftmax`` use the last axis.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.get_activation("LeakyReLU")
        LeakyReLU(negative_slope=0.2)
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"For 'get_activation', the argument 'name' must be a str or None, "
                        f"but got {type(name).__name__}")
    factory = _ACTIVATIONS.get(name.lower())
    if factory is None:
        raise ValueError(f"For 'get_activation', the activation {name!r} is not supported; "
                       f"choose one of {sorted(_ACTIVATIONS)}")
    return factory()


__all__ = ["ReLU", "ReLU6", "Hardtanh", "Sigmoid", "Tanh", "GELU", "SiLU", "LeakyReLU", "ELU",
           "Softplus", "LogSigmoid", "Softmax", "LogSoftmax", "get_activation"]
