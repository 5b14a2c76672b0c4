"""Normalization layers: ``BatchNorm1d``, ``BatchNorm2d`` and ``LayerNorm`` (PyTorch).

BatchNorm keeps ``running_mean``, ``running_var`` and ``num_batches_tracked``
as buffers (part of ``state_dict``). In training mode it normalizes by the
batch statistics and moves the running ones by ``momentum`` (with the
unbiased batch variance); ``momentum=None`` makes them a cumulative average.
In evaluation mode it normalizes by the running statistics. ``affine=True``
gives a learnable ``weight`` and (unless ``bias=False``, PyTorch 2.13) ``bias``.
These are
PyTorch's conventions: MindSpore's ``momentum=0.9`` is PyTorch's 0.1.

Example:
    >>> import unigrad as ug
    >>> bn = ug.nn.BatchNorm1d(2)
    >>> bn(ug.tensor([[1.0, 2.0], [3.0, 6.0]]))
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]], grad_fn=<AddBackward0>)
    >>> bn.running_mean, bn.num_batches_tracked
    (tensor([0.2000, 0.4000]), tensor(1))
"""

from __future__ import annotations

import math

import numpy as np

from ...autograd.grad_mode import no_grad
from ...backend import int64
from ...ops.nn_functional import batch_norm, layer_norm
from ...tensor import Tensor
from .. import init
from ..cell import Cell
from ._common import device_of, floating_dtype, new_buffer, new_parameter, positive_int, real_number


class _BatchNorm(Cell):
    """The shared batch normalization; subclasses define ``_check_input_dim``."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, *, bias: bool = True):
        super().__init__()
        owner = type(self).__name__
        num_features = positive_int(num_features, "num_features", owner)
        eps = real_number(eps, "eps", owner)
        if eps < 0:
            raise ValueError(f"{owner}: argument 'eps' must be non-negative, got {eps}")
        if momentum is not None:
            momentum = real_number(momentum, "momentum", owner)
            if not 0.0 <= momentum <= 1.0:
                raise ValueError(f"{owner}: argument 'momentum' must be in [0, 1] or None, "
                                 f"got {momentum}")
        dtype, device = floating_dtype(dtype, owner), device_of(device)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        if self.affine:
            self.weight = new_parameter("ones", (num_features,), dtype, device)
            if bias:
                self.bias = new_parameter("zeros", (num_features,), dtype, device)
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", new_buffer(0.0, (num_features,), dtype, device))
            self.register_buffer("running_var", new_buffer(1.0, (num_features,), dtype, device))
            self.register_buffer("num_batches_tracked", new_buffer(0, (), int64, device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batches tracked."""
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Reset the running statistics, and ``weight`` to 1 and ``bias`` to 0."""
        self.reset_running_stats()
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def _check_input_dim(self, input) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def construct(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        shape = tuple(input.shape)
        if shape[1] != self.num_features:
            raise ValueError(f"{type(self).__name__}: expected input with {self.num_features} "
                             f"channels (dimension 1), but got input of size {list(shape)}")
        use_batch_stats = self.training or self.running_mean is None
        if use_batch_stats and math.prod(shape) // shape[1] <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input "
                             f"size {list(shape)}")
        updating = self.training and self.track_running_stats
        factor = 0.0 if self.momentum is None else self.momentum
        if updating and self.momentum is None:
            factor = 1.0 / float(int(self.num_batches_tracked.item()) + 1)
        tracked = not self.training or self.track_running_stats
        output = batch_norm(input, self.running_mean if tracked else None,
                            self.running_var if tracked else None, self.weight, self.bias,
                            use_batch_stats, factor, self.eps)
        if updating:
            with no_grad():
                self.num_batches_tracked.add_(1)
        return output

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization over ``(N, C)`` or ``(N, C, L)`` input, per channel ``C``.

    Example:
        >>> import unigrad as ug
        >>> bn = ug.nn.BatchNorm1d(3, momentum=None)
        >>> bn
        BatchNorm1d(3, eps=1e-05, momentum=None, affine=True, bias=True, track_running_stats=True)
        >>> list(bn.state_dict())
        ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    def _check_input_dim(self, input) -> None:
        if len(input.shape) not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {len(input.shape)}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization over ``(N, C, H, W)`` input, per channel ``C``.

    Example:
        >>> import unigrad as ug
        >>> bn = ug.nn.BatchNorm2d(2).eval()
        >>> bn(ug.ones(1, 2, 2, 2))[0, 0]
        tensor([[1.0000, 1.0000],
                [1.0000, 1.0000]], grad_fn=<...>)
    """

    def _check_input_dim(self, input) -> None:
        if len(input.shape) != 4:
            raise ValueError(f"expected 4D input (got {len(input.shape)}D input)")


class LayerNorm(Cell):
    """Normalize over the trailing ``normalized_shape`` dimensions, then scale and shift.

    ``weight`` (ones) and ``bias`` (zeros) have shape ``normalized_shape``
    when ``elementwise_affine``; ``bias=False`` drops the shift.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.LayerNorm(2)
        >>> norm
        LayerNorm((2,), eps=1e-05, elementwise_affine=True, bias=True)
        >>> norm(ug.tensor([[1.0, 3.0]]))
        tensor([[-1.0000,  1.0000]], grad_fn=<AddBackward0>)
    """

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, (int, np.integer)) and not isinstance(normalized_shape,
                                                                               bool):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)) or not normalized_shape:
            raise TypeError(f"LayerNorm: argument 'normalized_shape' must be an int or a "
                            f"non-empty tuple of ints, got {normalized_shape!r}")
        self.normalized_shape = tuple(positive_int(n, "normalized_shape", "LayerNorm")
                                      for n in normalized_shape)
        self.eps = real_number(eps, "eps", "LayerNorm")
        if self.eps < 0:
            raise ValueError(f"LayerNorm: argument 'eps' must be non-negative, got {self.eps}")
        self.elementwise_affine = bool(elementwise_affine)
        dtype, device = floating_dtype(dtype, "LayerNorm"), device_of(device)
        if self.elementwise_affine:
            self.weight = new_parameter("ones", self.normalized_shape, dtype, device)
            if bias:
                self.bias = new_parameter("zeros", self.normalized_shape, dtype, device)
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """``weight`` back to 1 and ``bias`` to 0."""
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def construct(self, input: Tensor) -> Tensor:
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm"]
