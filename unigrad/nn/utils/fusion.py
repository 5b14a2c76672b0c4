"""Folding batch normalization into the preceding convolution or linear layer for inference:
fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights.

The folded layer computes ``bn(layer(x))`` (BatchNorm with its running statistics) in one
affine map: ``w' = w * gamma / sqrt(var + eps)`` and ``b' = (b - mean) * gamma /
sqrt(var + eps) + beta``.
"""

from __future__ import annotations

import copy

from ...ops import ones_like, rsqrt, zeros_like
from ...tensor import Tensor
from ..parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights"]


def _check_eval(layer, bn) -> None:
    if layer.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def fuse_conv_bn_eval(conv, bn, transpose: bool = False):
    """A copy of ``conv`` whose weight and bias fold in ``bn`` (both in eval mode).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import fuse_conv_bn_eval
        >>> conv, bn = ug.nn.Conv2d(1, 2, 1).eval(), ug.nn.BatchNorm2d(2).eval()
        >>> x = ug.randn(1, 1, 3, 3)
        >>> fused = fuse_conv_bn_eval(conv, bn)
        >>> bool(((fused(x) - bn(conv(x))).abs() < 1e-6).all())
        True
    """
    _check_eval(conv, bn)
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose)
    return fused


def fuse_conv_bn_weights(conv_w: Tensor, conv_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor,
                         bn_eps: float, bn_w: Tensor | None, bn_b: Tensor | None,
                         transpose: bool = False) -> tuple[Parameter, Parameter]:
    """The convolution's ``(weight, bias)`` with the batch norm folded in, as Parameters.

    ``transpose=True`` is for transposed convolutions (output channels on dim 1).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import fuse_conv_bn_weights
        >>> w, b = fuse_conv_bn_weights(ug.ones(2, 1, 1, 1), None, ug.zeros(2), ug.ones(2),
        ...                             0.0, ug.tensor([2.0, 3.0]), ug.tensor([1.0, 0.0]))
        >>> w.reshape(-1).tolist(), b.tolist()
        ([2.0, 3.0], [1.0, 0.0])
    """
    weight_dtype = conv_w.dtype
    bias_dtype = conv_b.dtype if conv_b is not None else weight_dtype
    conv_b = zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = zeros_like(bn_rm) if bn_b is None else bn_b
    inverse_std = rsqrt(bn_rv + bn_eps)
    channel = [1, -1] if transpose else [-1, 1]
    shape = channel + [1] * (conv_w.ndim - 2)
    weight = (conv_w * (bn_w * inverse_std).reshape(shape)).to(dtype=weight_dtype)
    bias = ((conv_b - bn_rm) * inverse_std * bn_w + bn_b).to(dtype=bias_dtype)
    return (Parameter(weight, conv_w.requires_grad),
            Parameter(bias, conv_b.requires_grad))


def fuse_linear_bn_eval(linear, bn):
    """A copy of ``linear`` whose weight and bias fold in ``bn`` (both in eval mode;
    ``bn.num_features`` must be ``linear.out_features`` or 1).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import fuse_linear_bn_eval
        >>> linear, bn = ug.nn.Linear(3, 2).eval(), ug.nn.BatchNorm1d(2).eval()
        >>> x = ug.randn(4, 3)
        >>> bool(((fuse_linear_bn_eval(linear, bn)(x) - bn(linear(x))).abs() < 1e-6).all())
        True
    """
    _check_eval(linear, bn)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(f"To fuse, linear.out_features == bn.num_features or "
                             f"bn.num_features == 1, got linear.out_features="
                             f"{linear.out_features} and bn.num_features={bn.num_features}")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused


def fuse_linear_bn_weights(linear_w: Tensor, linear_b: Tensor | None, bn_rm: Tensor,
                           bn_rv: Tensor, bn_eps: float, bn_w: Tensor,
                           bn_b: Tensor) -> tuple[Parameter, Parameter]:
    """The linear layer's ``(weight, bias)`` with the batch norm folded in, as Parameters.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import fuse_linear_bn_weights
        >>> w, b = fuse_linear_bn_weights(ug.ones(2, 1), None, ug.zeros(2), ug.ones(2), 0.0,
        ...                               ug.tensor([2.0, 3.0]), ug.tensor([1.0, 0.0]))
        >>> w.tolist(), b.tolist()
        ([[2.0], [3.0]], [1.0, 0.0])
    """
    weight_dtype = linear_w.dtype
    bias_dtype = linear_b.dtype if linear_b is not None else weight_dtype
    linear_b = zeros_like(bn_rm) if linear_b is None else linear_b
    scale = bn_w * rsqrt(bn_rv + bn_eps)
    weight = linear_w * scale.unsqueeze(-1).to(dtype=weight_dtype)
    bias = ((linear_b - bn_rm) * scale + bn_b).to(dtype=bias_dtype)
    return (Parameter(weight, linear_w.requires_grad),
            Parameter(bias, linear_b.requires_grad))
