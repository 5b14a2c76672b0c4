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
from ...ops import nn_activations as F
from ...ops.nn_activations import elu, hardtanh, leaky_relu, log_softmax, logsigmoid, softmax
from ...tensor import Tensor
from ..cell import Cell
from ..init import constant_
from ._common import device_of, floating_dtype, new_parameter, positive_int, real_number


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


def _with_inplace(text: str, inplace: bool) -> str:
    return f"{text}, inplace=True" if inplace else text


class SELU(Cell):
    """``scale * elu(x, alpha)`` with the self-normalizing constants.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.SELU()(ug.tensor([1.0]))
        tensor([1.0507])
    """

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        return F.selu(input, self.inplace)

    def extra_repr(self) -> str:
        return _inplace_text(self.inplace)


class CELU(Cell):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.CELU(alpha=0.5)(ug.tensor([-100.0, 1.0]))
        tensor([-0.5000,  1.0000])
        >>> ug.nn.CELU()
        CELU(alpha=1.0)
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return _with_inplace(f"alpha={self.alpha}", self.inplace)


class PReLU(Cell):
    """Leaky ReLU with learned slopes: one (``num_parameters=1``) or one per channel (dim 1).

    The slopes are the Parameter ``weight``, filled with ``init``.

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.PReLU(2, init=0.5)
        >>> layer
        PReLU(num_parameters=2)
        >>> layer(ug.tensor([[-2.0, -4.0]]))
        tensor([[-1., -2.]], grad_fn=<PreluKernelBackward0>)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = positive_int(num_parameters, "num_parameters", "PReLU")
        self.init = init
        self.weight = new_parameter(init, (self.num_parameters,), floating_dtype(dtype, "PReLU"),
                                    device_of(device), argument="init", owner="PReLU")

    def reset_parameters(self) -> None:
        """Refill ``weight`` with ``init``."""
        constant_(self.weight, self.init)

    def construct(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class RReLU(Cell):
    """Randomized leaky ReLU: random slopes in ``[lower, upper]`` in training, their mean in eval.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.RReLU(0.25, 0.75).eval()(ug.tensor([-2.0, 1.0]))
        tensor([-1.,  1.])
        >>> ug.nn.RReLU()
        RReLU(lower=0.125, upper=0.3333333333333333)
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return _with_inplace(f"lower={self.lower}, upper={self.upper}", self.inplace)


class Hardsigmoid(Cell):
    """``relu6(x + 3) / 6``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Hardsigmoid()(ug.tensor([-4.0, 0.0, 4.0]))
        tensor([0.0000, 0.5000, 1.0000])
    """

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Cell):
    """``x * relu6(x + 3) / 6``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Hardswish()(ug.tensor([1.5, 4.0]))
        tensor([1.1250, 4.0000])
    """

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        return F.hardswish(input, self.inplace)


class Mish(Cell):
    """``x * tanh(softplus(x))``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Mish()(ug.tensor([1.0]))
        tensor([0.8651])
    """

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        return F.mish(input, self.inplace)

    def extra_repr(self) -> str:
        return _inplace_text(self.inplace)


class Softsign(Cell):
    """``x / (1 + |x|)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Softsign()(ug.tensor([-3.0]))
        tensor([-0.7500])
    """

    def construct(self, input: Tensor) -> Tensor:
        return F.softsign(input)


class Tanhshrink(Cell):
    """``x - tanh(x)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Tanhshrink()(ug.tensor([0.0]))
        tensor([0.])
    """

    def construct(self, input: Tensor) -> Tensor:
        return F.tanhshrink(input)


class Threshold(Cell):
    """``x`` where ``x > threshold``, ``value`` elsewhere.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Threshold(0.1, 20)(ug.tensor([0.0, 1.0]))
        tensor([20.,  1.])
        >>> ug.nn.Threshold(0.1, 20)
        Threshold(threshold=0.1, value=20)
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return _with_inplace(f"threshold={self.threshold}, value={self.value}", self.inplace)


class GLU(Cell):
    """Gated linear unit: first half of ``dim`` times sigmoid of the second half.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.GLU()(ug.tensor([[2.0, 0.0]]))
        tensor([[1.]])
    """

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def construct(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(Cell):
    """``softmax(-x, dim)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Softmin(dim=1)(ug.tensor([[0.0, 0.0]]))
        tensor([[0.5000, 0.5000]])
    """

    def __init__(self, dim: int | None = None):
        super().__init__()
        self.dim = dim

    def construct(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Cell):
    """Softmax over the channels (dim -3) of a ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Softmax2d()(ug.zeros(2, 1, 1))
        tensor([[[0.5000]],
        <BLANKLINE>
                [[0.5000]]])
    """

    def construct(self, input: Tensor) -> Tensor:
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D "
                             f"instead")
        return softmax(input, -3)


class Hardshrink(Cell):
    """``x`` where ``|x| > lambd``, 0 elsewhere.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Hardshrink()(ug.tensor([0.25, 1.0]))
        tensor([0., 1.])
        >>> ug.nn.Hardshrink()
        Hardshrink(0.5)
    """

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input: Tensor) -> Tensor:
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """``x`` moved ``lambd`` toward 0, and 0 where ``|x| <= lambd``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Softshrink()(ug.tensor([0.25, 1.0]))
        tensor([0.0000, 0.5000])
    """

    def construct(self, input: Tensor) -> Tensor:
        return F.softshrink(input, self.lambd)


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
           "Softplus", "LogSigmoid", "Softmax", "LogSoftmax", "SELU", "CELU", "PReLU", "RReLU",
           "Hardsigmoid", "Hardswish", "Mish", "Softsign", "Tanhshrink", "Threshold", "GLU",
           "Softmin", "Softmax2d", "Hardshrink", "Softshrink", "get_activation"]
