"""More of ``mindspore.nn``'s layers over the core's ops: ``nn.Linear``, ``nn.FastGelu``,
``nn.Tril``/``nn.Triu``, ``nn.OneHot``, ``nn.Range``, ``nn.Moments``, ``nn.Norm``,
``nn.MatMul``, ``nn.AdaptiveAvgPool3d``/``nn.AdaptiveMaxPool3d`` and ``nn.CellDict``, with
MindSpore's arguments, defaults, Parameter names and ``repr`` text.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> print(nn.Norm(axis=1)(ms.Tensor([[3.0, 4.0]])))
    [5.]
"""

from __future__ import annotations

import numpy as np

import unigrad as _ug

from ... import nn as _ugnn
from ...nn import functional as _functional
from ...nn.layers._common import int_tuple
from ._nn_adaptive import _Adaptive
from ._nn_more_attention import *  # noqa: F403 - exported with these layers
from ._nn_more_attention import __all__ as _attention_names
from ._tensor import Parameter, Tensor
from .common.initializer import initializer
from .dtype import float32
from .nn import Cell

__all__ = ["Linear", "FastGelu", "Tril", "Triu", "OneHot", "Range", "Moments", "Norm", "MatMul",
           "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "CellDict", "Pad", "TimeDistributed",
           "LRN", "RReLU", "MaxPool3d", "AvgPool3d", "MaxUnpool1d",
           "MaxUnpool2d", "MaxUnpool3d",
           *_attention_names]


class _NoArguments(Cell):
    """A Cell whose ``repr`` shows no arguments (``Tril()``), as MindSpore prints them."""

    def extend_repr(self) -> str:
        return ""


class Linear(Cell, _ugnn.Linear):
    """``nn.Linear(in_features, out_features, bias=True, weight_init=None, bias_init=None,
    dtype=None)``: ``x @ weight.T + bias``, ``weight`` of shape ``(out_features,
    in_features)``; both drawn from ``U(-1/sqrt(in_features), 1/sqrt(in_features))`` unless
    ``weight_init``/``bias_init`` (MindSpore initializers, names or Tensors) are given.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> linear = nn.Linear(2, 1, weight_init="ones", bias_init="zeros")
        >>> print(linear(ms.Tensor([[1.0, 2.0]])))
        [[3.]]
        >>> [parameter.name for parameter in linear.get_parameters()]
        ['weight', 'bias']
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 weight_init=None, bias_init=None, dtype=None):
        dtype = float32 if dtype is None else dtype
        _ugnn.Linear.__init__(self, in_features, out_features, bias, dtype=dtype)
        if weight_init is not None:
            self.weight = Parameter(initializer(weight_init, (out_features, in_features), dtype),
                                    name="weight")
        if bias and bias_init is not None:
            self.bias = Parameter(initializer(bias_init, (out_features,), dtype), name="bias")
        self.has_bias = bias

    def extend_repr(self) -> str:
        text = f"input_features={self.in_features}, output_features={self.out_features}"
        return text + (f", has_bias={self.has_bias}" if self.has_bias else "")


class FastGelu(_NoArguments):
    """``nn.FastGelu()``: ``x / (1 + exp(-1.702 * |x|)) * exp(0.851 * (x - |x|))``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.FastGelu()(ms.Tensor([-1.0, 0.5])))
        [-0.15420423  0.35038844]
    """

    def construct(self, x):
        magnitude = _ug.abs(x)
        return x / (1.0 + _ug.exp(magnitude * -1.702)) * _ug.exp((x - magnitude) * 0.851)


def _check_diagonal(owner: str, x, k) -> None:
    if x.ndim < 1:
        raise ValueError(f"For '{owner}', the x rank must be >= 1, but got 0.")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For '{owner}', the type of 'k value' must be 'int', but got "
                        f"'{type(k).__name__}'.")


class Tril(_NoArguments):
    """``nn.Tril()``: called as ``tril(x, k=0)``, zeroes the elements above the ``k``-th
    diagonal of the last two axes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Tril()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        [[1. 0.]
         [3. 4.]]
    """

    def construct(self, x, k: int = 0):
        _check_diagonal("tril", x, k)
        return _ug.tril(x, k)


class Triu(_NoArguments):
    """``nn.Triu()``: called as ``triu(x, k=0)``, zeroes the elements below the ``k``-th
    diagonal of the last two axes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Triu()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        [[1. 2.]
         [0. 4.]]
    """

    def construct(self, x, k: int = 0):
        _check_diagonal("triu", x, k)
        return _ug.triu(x, k)


class OneHot(_NoArguments):
    """``nn.OneHot(axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=ms.float32)``:
    ``on_value`` where an index names the position along the new axis ``axis``, else
    ``off_value`` (out-of-range indices give a row of ``off_value``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.OneHot(depth=3)(ms.Tensor([0, 2], ms.int32)))
        [[1. 0. 0.]
         [0. 0. 1.]]
    """

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0,
                 off_value: float = 0.0, dtype=float32):
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        hits = np.asarray(indices._data)[..., None] == np.arange(self.depth)
        values = np.where(hits, self.on_value, self.off_value)
        return Tensor(np.moveaxis(values, -1, self.axis), self.dtype)


class Range(_NoArguments):
    """``nn.Range(start, limit=None, delta=1)``: called with no input, returns
    ``start, start + delta, ...`` below ``limit`` (``0 .. start`` when ``limit`` is None);
    int32 when every bound is an int, float32 otherwise.

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Range(1, 8, 3)())
        [1 4 7]
    """

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if limit is None:
            start, limit = 0, start
        self.start, self.limit, self.delta = start, limit, delta

    def construct(self):
        bounds = (self.start, self.limit, self.delta)
        dtype = np.int32 if all(isinstance(value, int) for value in bounds) else np.float32
        return Tensor(np.arange(*bounds).astype(dtype))


class Moments(_NoArguments):
    """``nn.Moments(axis=None, keep_dims=None)``: ``(mean, variance)`` of ``x`` over
    ``axis`` (every axis when None), the population variance.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> mean, variance = nn.Moments()(ms.Tensor([1.0, 2.0, 3.0, 4.0]))
        >>> print(mean, variance)
        2.5 1.25
    """

    def __init__(self, axis=None, keep_dims: bool | None = None):
        super().__init__()
        self.axis, self.keep_dims = axis, bool(keep_dims)

    def construct(self, x):
        mean = _ug.mean(x, axis=self.axis, keepdims=True)
        variance = _ug.mean((x - mean) ** 2, axis=self.axis, keepdims=self.keep_dims)
        if not self.keep_dims:
            mean = _ug.mean(x, axis=self.axis)
        return mean, variance


class Norm(Cell):
    """``nn.Norm(axis=(), keep_dims=False)``: ``sqrt(sum(x ** 2))`` over ``axis`` (every axis
    when it is ``()``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Norm()(ms.Tensor([[3.0, 4.0]])))
        5.0
    """

    def __init__(self, axis=(), keep_dims: bool = False):
        super().__init__()
        if isinstance(axis, int):
            axis = (axis,)
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        axis = tuple(self.axis) if self.axis else None
        return _ug.sqrt(_ug.sum(x * x, axis=axis, keepdims=self.keep_dims))

    def extend_repr(self) -> str:
        axis = self.axis[0] if len(self.axis) == 1 else self.axis
        return f"axis={axis}, keep_dims={self.keep_dims}"


class MatMul(_NoArguments):
    """``nn.MatMul(transpose_x1=False, transpose_x2=False)``: ``x1 @ x2`` (each transposed
    in its last two axes when asked), batch axes broadcast.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x = ms.Tensor([[1.0, 2.0]])
        >>> print(nn.MatMul(transpose_x2=True)(x, x))
        [[5.]]
    """

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False):
        super().__init__()
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1:
            x1 = _ug.swapaxes(x1, -1, -2)
        if self.transpose_x2:
            x2 = _ug.swapaxes(x2, -1, -2)
        return _ug.matmul(x1, x2)


class AdaptiveAvgPool3d(_Adaptive, _ugnn.AdaptiveAvgPool3d):
    """``nn.AdaptiveAvgPool3d(output_size)``: averages ``(N, C, D, H, W)`` inputs over
    adaptive windows to ``output_size`` (an int, or a triple whose ``None`` keeps that
    size).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.AdaptiveAvgPool3d((1, None, 2))(ms.ops.ones((1, 2, 3, 4, 4), ms.float32)).shape
        (1, 2, 1, 4, 2)
    """

    def __init__(self, output_size):
        _ugnn.AdaptiveAvgPool3d.__init__(self, output_size)


class AdaptiveMaxPool3d(_Adaptive, _ugnn.AdaptiveMaxPool3d):
    """``nn.AdaptiveMaxPool3d(output_size, return_indices=False)``: the maximum of each
    adaptive window of ``(N, C, D, H, W)`` inputs (and the flat indices of the maxima with
    ``return_indices``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.AdaptiveMaxPool3d(1)(ms.Tensor([[[[[1.0, 4.0], [3.0, 2.0]]]]])))
        [[[[[4.]]]]]
    """

    def __init__(self, output_size, return_indices: bool = False):
        _ugnn.AdaptiveMaxPool3d.__init__(self, output_size, return_indices)


class CellDict(Cell, _ugnn.CellDict):
    """``nn.CellDict(*args, **kwargs)``: an ordered ``{name: Cell}`` mapping registered as
    children (built from a dict or a list of ``(name, cell)`` pairs).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> cells = nn.CellDict({"dense": nn.Dense(2, 1), "relu": nn.ReLU()})
        >>> list(cells.keys()), cells["dense"].weight.name
        (['dense', 'relu'], 'dense.weight')
    """

    def __init__(self, *args, **kwargs):
        _ugnn.CellDict.__init__(self, *args, **kwargs)



def _mirrored(x, axis: int, before: int, after: int, offset: int):
    """``x`` padded along ``axis`` by mirroring: ``offset=1`` leaves the edge out
    (``'REFLECT'``), ``offset=0`` repeats it (``'SYMMETRIC'``)."""
    size = x.shape[axis]
    parts = [_ug.flip(_ug.narrow(x, axis, offset, before), (axis,))] if before else []
    parts.append(x)
    if after:
        parts.append(_ug.flip(_ug.narrow(x, axis, size - after - offset, after), (axis,)))
    return _ug.cat(parts, axis)


class Pad(_NoArguments):
    """``nn.Pad(paddings, mode='CONSTANT')``: pads axis ``i`` of the input by
    ``paddings[i] = (before, after)`` (a tuple of up to 4 pairs, one per leading axis) with
    zeros (``'CONSTANT'``) or a mirror image without (``'REFLECT'``) or with
    (``'SYMMETRIC'``) the edge.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Pad(((0, 0), (2, 1)), mode="REFLECT")(ms.Tensor([[1.0, 2.0, 3.0]])))
        [[3. 2. 1. 2. 3. 2.]]
    """

    def __init__(self, paddings: tuple, mode: str = "CONSTANT"):
        super().__init__()
        modes = ["CONSTANT", "REFLECT", "SYMMETRIC"]
        if mode not in modes:
            raise ValueError(f"For 'Pad', the 'mode' must be str and must be in '{modes}', but "
                             f"got '{mode}'.")
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got "
                            f"{type(paddings).__name__}.")
        if any(len(item) != 2 for item in paddings):
            raise ValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2), but got "
                             f"{paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For 'Pad', only 'paddings' up to 4 dims is supported, but got "
                             f"{len(paddings)}.")
        self.mode, self.paddings = mode, paddings

    def construct(self, x):
        if self.mode == "CONSTANT":
            widths = [width for pair in reversed(self.paddings) for width in pair]
            return _functional.pad(x, tuple(widths))
        offset = 1 if self.mode == "REFLECT" else 0
        for axis, (before, after) in enumerate(self.paddings):
            x = _mirrored(x, axis, before, after, offset)
        return x


class TimeDistributed(Cell):
    """``nn.TimeDistributed(layer, time_axis, reshape_with_axis=None)``: ``layer`` applied
    to each slice of the input along ``time_axis``, the outputs stacked back along it
    (``reshape_with_axis``, MindSpore's way of running the slices as one batch, gives the
    same values and is accepted as such).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> layer = nn.TimeDistributed(nn.Dense(3, 2), time_axis=1)
        >>> layer(ms.ops.ones((4, 5, 3), ms.float32)).shape
        (4, 5, 2)
    """

    def __init__(self, layer, time_axis: int, reshape_with_axis: int | None = None):
        super().__init__()
        if not isinstance(layer, Cell):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive "
                            f"instance, but got type: {type(layer).__name__}.")
        for name, value in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"For 'TimeDistributed', the type of '{name}' must be 'int', but "
                                f"got '{type(value).__name__}'.")
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs):
        if inputs.ndim < 3:
            raise ValueError(f"For 'TimeDistributed', the inputs shape must be at least 3D, but "
                             f"got {inputs.ndim}.")
        axis = self.time_axis % inputs.ndim
        return _ug.stack([self.layer(item) for item in _ug.unbind(inputs, axis)], axis)


def _check_type(owner: str, name: str, value, types: tuple) -> None:
    """MindSpore's ``check_value_type`` (bool is not an int)."""
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        names = [kind.__name__ for kind in types]
        expected = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
        raise TypeError(f"For '{owner}', the type of '{name}' should be {expected}, but got "
                        f"type '{type(value).__name__}'.")


class LRN(_NoArguments, _ugnn.LocalResponseNorm):
    """``nn.LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
    norm_region='ACROSS_CHANNELS')``: local response normalization of ``(N, C, H, W)``
    inputs across channels, ``x / (bias + alpha * sum(x**2 over the 2 * depth_radius + 1
    nearest channels)) ** beta``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.LRN(1, 1.0, 1.0, 0.5)(ms.Tensor([[[[1.0]], [[2.0]]]])).reshape(-1))
        [0.40824828 0.81649655]
    """

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
                 beta: float = 0.5, norm_region: str = "ACROSS_CHANNELS"):
        _check_type("LRN", "depth_radius", depth_radius, (int,))
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            _check_type("LRN", name, value, (float,))
        _check_type("LRN", "norm_region", norm_region, (str,))
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"For 'LRN', the 'norm_region' must be str and must be in "
                             f"'['ACROSS_CHANNELS']', but got '{norm_region}'.")
        if depth_radius < 0:
            raise ValueError(f"For 'LRN', the 'depth_radius' must be int and must >= 0, but got "
                             f"'{depth_radius}' with type 'int'.")
        size = 2 * depth_radius + 1  # the core averages alpha over the window's channels
        _ugnn.LocalResponseNorm.__init__(self, size, alpha * size, beta, bias)
        self.depth_radius, self.bias, self.norm_region = depth_radius, bias, norm_region

    def construct(self, input_x):
        if input_x.ndim != 4:
            raise ValueError(f"For primitive[LRN], the rank of input  must be equal to 4 , but "
                             f"got {input_x.ndim}.")
        return super().construct(input_x)


class RReLU(_NoArguments):
    """``nn.RReLU(lower=1/8, upper=1/3)``: ``x`` where positive, ``a * x`` elsewhere with
    ``a`` drawn from ``U(lower, upper)`` for each element at every call (in training and
    evaluation alike, as in MindSpore).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.RReLU(0.5, 0.5)(ms.Tensor([-2.0, 3.0])))
        [-1.  3.]
    """

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3):
        super().__init__()
        _check_type("RReLU", "upper", upper, (float, int))
        _check_type("RReLU", "lower", lower, (float, int))
        if lower > upper:
            raise ValueError(f"For RReLU, the value of 'upper' must be greater than or equal to "
                             f"'lower', but got upper: {upper}, lower: {lower}. ")
        self.lower, self.upper = lower, upper

    def construct(self, x):
        slopes = _ug.empty(tuple(x.shape), dtype=x.dtype).uniform_(self.lower, self.upper)
        return _ug.where(x < 0, x * slopes, x)


def _pool_size(owner: str, name: str, value):
    """MindSpore's check of a pool's ``kernel_size``/``stride``: a positive int or a tuple
    of them (a 1-tuple counts as its item)."""
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError(f"For '{owner}', the type of '{name}' should be one of '['int', "
                        f"'tuple']', but got type '{type(value).__name__}'.")
    items = (value,) if isinstance(value, int) else value
    if not all(isinstance(item, int) and item > 0 for item in items):
        raise ValueError(f"For '{owner}', the '{name}' must be an positive int number or a "
                         f"tuple, but got {value}")
    return value[0] if isinstance(value, tuple) and len(value) == 1 else value


def _pool_padding(owner: str, padding) -> tuple:
    """``padding`` (an int, or 1 or 3 non-negative ints) as 3 ints."""
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
        raise TypeError(f"For '{owner}', the type of 'padding' should be one of '['int', "
                        f"'tuple', 'list']', but got type '{type(padding).__name__}'.")
    items = (padding,) * 3 if isinstance(padding, int) else tuple(padding)
    if len(items) == 1:
        items = items * 3
    if len(items) != 3 and owner == "AvgPool3d":
        raise ValueError(f"For {owner}, the padding must be a int or tuple/list contains 1 or 3 "
                         f"int, but got tuple/list with length:{len(items)}.")
    if len(items) != 3:
        raise ValueError(f"For {owner}, the length of padding must equal to 3, but got "
                         f"{len(items)}.")
    return int_tuple(items, 3, "padding", owner, minimum=0)


class _Pool3d(_NoArguments):
    """MindSpore's 3-d pools: ``pad_mode`` 'valid', 'same' (TensorFlow's padding, the odd
    element at the end) or 'pad' (``padding`` on both sides); ``(C, D, H, W)`` inputs are
    taken as a batch of one."""

    _fill = 0.0  # the value 'same' padding adds

    def __init__(self, kernel_size, stride, pad_mode: str, padding):
        super().__init__()
        owner = type(self).__name__
        if not isinstance(pad_mode, str):
            raise TypeError(f"For '{owner}', the type of 'pad_mode' should be 'str', but got "
                            f"type '{type(pad_mode).__name__}'.")
        if pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{owner}', the 'pad_mode' must be str and must be in "
                             f"'['VALID', 'SAME', 'PAD']', but got '{pad_mode.upper()}'.")
        self.pad_mode = pad_mode.upper()
        self.kernel_size = _pool_size(owner, "kernel_size", kernel_size)
        self.stride = _pool_size(owner, "stride", stride)
        self._kernel = int_tuple(self.kernel_size, 3, "kernel_size", owner)
        self._stride = int_tuple(self.stride, 3, "stride", owner)
        self._padding = _pool_padding(owner, padding)

    def _pool(self, x, padding: tuple):
        raise NotImplementedError

    def _same_padded(self, x):
        """``x`` padded as TensorFlow's 'SAME' does (``_fill`` values, odd one at the end)."""
        widths = []
        for size, kernel, stride in zip(x.shape[:1:-1], self._kernel[::-1], self._stride[::-1]):
            total = max((-(-size // stride) - 1) * stride + kernel - size, 0)
            widths += [total // 2, total - total // 2]
        return _functional.pad(x, tuple(widths), value=self._fill)

    def construct(self, x):
        unbatched = x.ndim == 4
        if unbatched:
            x = _ug.unsqueeze(x, 0)
        if self.pad_mode == "SAME":
            output = self._pool(self._same_padded(x), (0, 0, 0))
        else:
            output = self._pool(x, self._padding if self.pad_mode == "PAD" else (0, 0, 0))
        if unbatched:
            return (tuple(_ug.squeeze(item, 0) for item in output) if isinstance(output, tuple)
                    else _ug.squeeze(output, 0))
        return output

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool3d(_Pool3d):
    """``nn.MaxPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1,
    return_indices=False, ceil_mode=False)``: the maximum of each window of ``(N, C, D, H,
    W)`` inputs (with ``return_indices``, also each maximum's flat index in its ``D*H*W``
    plane; ``dilation``/``return_indices`` need ``pad_mode='pad'``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.MaxPool3d(kernel_size=2, stride=1)(ms.ops.ones((1, 2, 3, 3, 3), ms.float32)).shape
        (1, 2, 2, 2, 2)
    """

    _fill = float("-inf")

    def __init__(self, kernel_size=1, stride=1, pad_mode: str = "valid", padding=0,
                 dilation=1, return_indices: bool = False, ceil_mode: bool = False):
        super().__init__(kernel_size, stride, pad_mode, padding)
        if (dilation != 1 or return_indices) and self.pad_mode != "PAD":
            raise ValueError(f"For MaxPool3d, the pad_mode must be 'pad' when dilation is not 1 "
                             f"or return_indices is True, but got pad_mode:{pad_mode}.")
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def _pool(self, x, padding: tuple):
        return _functional.max_pool3d(x, self._kernel, self._stride, padding, self.dilation,
                                      self.ceil_mode and self.pad_mode == "PAD",
                                      self.return_indices)


class AvgPool3d(_Pool3d):
    """``nn.AvgPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=None)``: the mean of each window of ``(N, C, D,
    H, W)`` inputs (divided by ``divisor_override`` when given).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.AvgPool3d(kernel_size=2, stride=2)(ms.ops.ones((1, 2, 4, 4, 4), ms.float32)).shape
        (1, 2, 2, 2, 2)
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode: str = "valid", padding=0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None):
        super().__init__(kernel_size, stride, pad_mode, padding)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For 'AvgPool3d', the 'divisor_override' must be > 0, but got "
                             f"{divisor_override}.")
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def _pool(self, x, padding: tuple):
        return _functional.avg_pool3d(x, self._kernel, self._stride, padding, self.ceil_mode,
                                      self.count_include_pad, self.divisor_override)


class _MaxUnpool(_NoArguments):
    """MindSpore's ``MaxUnpool*d(kernel_size, stride=None, padding=0)``, called as
    ``unpool(x, indices, output_size=None)``: the core's unpooling."""

    def construct(self, x, indices, output_size=None):
        return super().construct(x, indices, output_size)


class MaxUnpool1d(_MaxUnpool, _ugnn.MaxUnpool1d):
    """``nn.MaxUnpool1d(kernel_size, stride=None, padding=0)``: puts each value of ``x`` at
    its ``indices`` (from a max pool) in a zero ``(N, C, L_out)`` output.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x, indices = ms.Tensor([[[2.0, 4.0]]]), ms.Tensor([[[1, 2]]], ms.int64)
        >>> print(nn.MaxUnpool1d(2)(x, indices))
        [[[0. 2. 4. 0.]]]
    """

    def __init__(self, kernel_size, stride=None, padding=0):
        _ugnn.MaxUnpool1d.__init__(self, kernel_size, stride, padding)


class MaxUnpool2d(_MaxUnpool, _ugnn.MaxUnpool2d):
    """``nn.MaxUnpool2d(kernel_size, stride=None, padding=0)``: puts each value of ``x`` at
    its flat ``indices`` (from a max pool) in a zero ``(N, C, H_out, W_out)`` output
    (``output_size`` picks among the possible sizes).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x, indices = ms.Tensor([[[[5.0]]]]), ms.Tensor([[[[3]]]], ms.int64)
        >>> print(nn.MaxUnpool2d(2)(x, indices))
        [[[[0. 0.]
           [0. 5.]]]]
    """

    def __init__(self, kernel_size, stride=None, padding=0):
        _ugnn.MaxUnpool2d.__init__(self, kernel_size, stride, padding)


class MaxUnpool3d(_MaxUnpool, _ugnn.MaxUnpool3d):
    """``nn.MaxUnpool3d(kernel_size, stride=None, padding=0)``: puts each value of ``x`` at
    its flat ``indices`` (from a max pool) in a zero ``(N, C, D_out, H_out, W_out)`` output.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x, indices = ms.Tensor([[[[[5.0]]]]]), ms.Tensor([[[[[7]]]]], ms.int64)
        >>> nn.MaxUnpool3d(2)(x, indices).shape
        (1, 1, 2, 2, 2)
    """

    def __init__(self, kernel_size, stride=None, padding=0):
        _ugnn.MaxUnpool3d.__init__(self, kernel_size, stride, padding)
