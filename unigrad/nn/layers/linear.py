"""Fully connected layers: MindSpore's ``Dense``, PyTorch's ``Linear``, ``LazyLinear``,
``Bilinear`` and ``Identity`` (and the lazy placeholders ``UninitializedParameter``/``Buffer``).

Both compute ``x @ weight.T + bias`` with ``weight`` of shape ``(out, in)``
over the last dimension of an input of any rank >= 1. Their default
initialization is PyTorch's (and MindSpore 2.3+'s): ``kaiming_uniform_`` with
``a=sqrt(5)`` for the weight, ``U(-1/sqrt(in), 1/sqrt(in))`` for the bias.

Example:
    >>> import unigrad as ug
    >>> fc = ug.nn.Dense(3, 1, has_bias=False)
    >>> _ = fc.weight.set_data(ug.tensor([[2.0, 3.0, 4.0]]))
    >>> fc(ug.tensor([[1.0, 2.0, 3.0]]))
    tensor([[20.]], grad_fn=<MmBackward0>)
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ...backend import float32
from ...ops.nn_functional import bilinear, linear
from ...tensor import Tensor
from .. import init
from ..cell import Cell
from ._common import device_of, floating_dtype, new_parameter, positive_int
from ._lazy import LazyModuleMixin, UninitializedBuffer, UninitializedParameter
from .activation import get_activation


class Dense(Cell):
    """MindSpore's fully connected layer: ``activation(x @ weight.T + bias)``.

    ``weight`` has shape ``(out_channels, in_channels)`` and ``bias`` shape
    ``(out_channels,)`` (``None`` when ``has_bias=False``). ``weight_init``
    and ``bias_init`` take anything :func:`unigrad.nn.init.initializer`
    takes (a name such as ``'normal'``, a number, a Tensor); ``None`` means
    PyTorch's default, which MindSpore 2.3+ also uses. ``activation`` is
    ``None``, a name for :func:`unigrad.nn.get_activation` (``'relu'``,
    ``'tanh'``, ...), a Cell or any callable.

    Example:
        >>> import unigrad as ug
        >>> net = ug.nn.Dense(3, 2, weight_init="ones", bias_init=0.5, activation="relu")
        >>> net(ug.tensor([[1.0, -2.0, 0.5]]))
        tensor([[0., 0.]], grad_fn=<ReluBackward0>)
        >>> ug.nn.Dense(3, 1)
        Dense(input_channels=3, output_channels=1, has_bias=True)
        >>> [p.name for p in ug.nn.Dense(3, 1, has_bias=False).trainable_params()]
        ['weight']
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init=None, bias_init=None,
                 has_bias: bool = True, activation=None, dtype=float32):
        super().__init__()
        self._build(in_channels, out_channels, weight_init, bias_init, has_bias, activation,
                    dtype, None, ("in_channels", "out_channels", "has_bias"))

    def _build(self, in_channels, out_channels, weight_init, bias_init, has_bias, activation,
               dtype, device, names: tuple) -> None:
        owner = type(self).__name__
        in_channels = positive_int(in_channels, names[0], owner, allow_zero=True)
        out_channels = positive_int(out_channels, names[1], owner, allow_zero=True)
        if not isinstance(has_bias, (bool, np.bool_)):
            raise TypeError(f"For '{owner}', the argument '{names[2]}' must be a bool, "
                            f"but got {type(has_bias).__name__}")
        has_bias = bool(has_bias)
        if isinstance(activation, str):
            activation = get_activation(activation)
        elif activation is not None and not callable(activation):
            raise TypeError(f"For '{owner}', the argument 'activation' must be a str, a Cell, a "
                            f"callable or None, but got {type(activation).__name__}")
        dtype, device = floating_dtype(dtype, owner), device_of(device)
        self.in_channels = self.in_features = in_channels
        self.out_channels = self.out_features = out_channels
        self.has_bias = has_bias
        self.weight = new_parameter(0.0 if weight_init is None else weight_init,
                                    (out_channels, in_channels), dtype, device,
                                    argument="weight_init", owner=owner)
        if has_bias:
            self.bias = new_parameter(0.0 if bias_init is None else bias_init, (out_channels,),
                                      dtype, device, argument="bias_init", owner=owner)
        else:
            self.register_parameter("bias", None)
        self._reset_defaults(weight_init is None, has_bias and bias_init is None)
        self.activation = activation
        self.activation_flag = activation is not None

    def _reset_defaults(self, weight: bool, bias: bool) -> None:
        if weight:
            init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if bias:
            fan_in = self.in_channels
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0.0
            init.uniform_(self.bias, -bound, bound)

    def reset_parameters(self) -> None:
        """Re-draw ``weight`` and ``bias`` with the default (PyTorch) initialization."""
        self._reset_defaults(True, self.bias is not None)

    def _shape_error(self, shape: tuple) -> Exception:
        return ValueError(f"For '{type(self).__name__}', the last dimension of the input must "
                          f"equal in_channels={self.in_channels}, but got input of shape "
                          f"{shape} whose last dimension is {shape[-1] if shape else None}")

    def construct(self, x: Tensor) -> Tensor:
        shape = tuple(x.shape)
        if not shape or shape[-1] != self.in_channels:
            raise self._shape_error(shape)
        output = linear(x, self.weight, self.bias)
        return output if self.activation is None else self.activation(output)

    def extra_repr(self) -> str:
        text = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            text += f", has_bias={self.has_bias}"
        if self.activation_flag:
            text += f", activation={_activation_name(self.activation)}"
        return text


def _activation_name(activation) -> str:
    return repr(activation) if isinstance(activation, Cell) else getattr(
        activation, "__name__", repr(activation))


class Linear(Dense):
    """PyTorch's fully connected layer ``x @ weight.T + bias`` (a :class:`Dense`).

    ``weight`` is ``(out_features, in_features)``; ``bias=False`` leaves
    ``self.bias`` as ``None``. A wrong input size raises PyTorch's
    ``RuntimeError`` ("mat1 and mat2 shapes cannot be multiplied").

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.Linear(3, 2, dtype=ug.float64)
        >>> layer
        Linear(in_features=3, out_features=2, bias=True)
        >>> layer(ug.ones(5, 3, dtype=ug.float64)).shape
        (5, 2)
        >>> layer.weight.dtype, layer.in_features
        (unigrad.float64, 3)
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None):
        Cell.__init__(self)
        self._build(in_features, out_features, None, None, bias, None, dtype, device,
                    ("in_features", "out_features", "bias"))

    def construct(self, input: Tensor) -> Tensor:
        return Dense.construct(self, input)

    def _shape_error(self, shape: tuple) -> Exception:
        rows = math.prod(shape[:-1]) if shape else 1
        columns = shape[-1] if shape else 1
        return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{columns} and "
                            f"{self.in_features}x{self.out_features})")

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """:class:`Linear` whose ``in_features`` is the last dimension of the first input.

    Until then ``weight`` and ``bias`` are :class:`UninitializedParameter`;
    the first call materializes and initializes them, and the layer becomes
    a :class:`Linear`.

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.LazyLinear(4)
        >>> layer
        LazyLinear(in_features=0, out_features=4, bias=True)
        >>> layer(ug.ones(2, 3)).shape
        (2, 4)
        >>> layer
        Linear(in_features=3, out_features=4, bias=True)
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None):
        with warnings.catch_warnings():  # the zero-size placeholder weight is not initialized
            warnings.simplefilter("ignore", UserWarning)
            super().__init__(0, positive_int(out_features, "out_features", "LazyLinear",
                                             allow_zero=True), bias, device, dtype)
        dtype, device = floating_dtype(dtype, "LazyLinear"), device_of(device)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if self.bias is not None:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        self._lazy_setup()

    def reset_parameters(self) -> None:
        """Re-draw as :class:`Linear` does, once the parameters have their shapes."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        """Take ``in_features`` from ``input.shape[-1]`` and materialize the parameters."""
        if not self.has_uninitialized_params():  # loaded from a state_dict: its shapes
            self.in_features = self.in_channels = int(self.weight.shape[1])
            return
        self.in_features = self.in_channels = int(input.shape[-1])
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.reset_parameters()


class Bilinear(Cell):
    """``y = x1 @ weight[o] @ x2 + bias[o]`` for every output feature ``o``.

    ``weight`` has shape ``(out_features, in1_features, in2_features)``; both
    it and ``bias`` start as ``U(-1/sqrt(in1_features), 1/sqrt(in1_features))``.

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.Bilinear(2, 3, 4)
        >>> layer
        Bilinear(in1_features=2, in2_features=3, out_features=4, bias=True)
        >>> layer(ug.ones(5, 2), ug.ones(5, 3)).shape
        (5, 4)
        >>> list(layer.state_dict())
        ['weight', 'bias']
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device=None, dtype=None):
        super().__init__()
        self.in1_features = positive_int(in1_features, "in1_features", "Bilinear",
                                         allow_zero=True)
        self.in2_features = positive_int(in2_features, "in2_features", "Bilinear",
                                         allow_zero=True)
        self.out_features = positive_int(out_features, "out_features", "Bilinear",
                                         allow_zero=True)
        dtype, device = floating_dtype(dtype, "Bilinear"), device_of(device)
        self.weight = new_parameter(0.0, (self.out_features, self.in1_features,
                                          self.in2_features), dtype, device)
        self.register_parameter("bias", new_parameter(0.0, (self.out_features,), dtype, device)
                                if bias else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-draw ``weight`` and ``bias`` from ``U(-1/sqrt(in1), 1/sqrt(in1))``."""
        bound = 1 / math.sqrt(self.in1_features) if self.in1_features > 0 else 0.0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def construct(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class Identity(Cell):
    """Returns its input unchanged; any constructor arguments are ignored (PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Identity(54, unused="argument")(ug.tensor([1.0, 2.0]))
        tensor([1., 2.])
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input: Tensor) -> Tensor:
        return input


__all__ = ["Dense", "Linear", "LazyLinear", "Bilinear", "Identity", "UninitializedParameter",
           "UninitializedBuffer"]
