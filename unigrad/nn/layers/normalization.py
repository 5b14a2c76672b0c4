"""Normalization layers (PyTorch): batch, instance, group, layer, RMS and local response norms.

``BatchNorm1d/2d/3d`` and ``SyncBatchNorm``, ``InstanceNorm1d/2d/3d``, their
``Lazy*`` forms (``num_features`` from the first input), ``GroupNorm``,
``LayerNorm``, ``RMSNorm``, ``LocalResponseNorm`` and ``CrossMapLRN2d``.

BatchNorm keeps ``running_mean``, ``running_var`` and ``num_batches_tracked``
as buffers (part of ``state_dict``). In training mode it normalizes by the
batch statistics and moves the running ones by ``momentum`` (with the
unbiased batch variance); ``momentum=None`` makes them a cumulative average.
In evaluation mode it normalizes by the running statistics. ``affine=True``
gives a learnable ``weight`` and (unless ``bias=False``, PyTorch 2.13) ``bias``.
InstanceNorm has the same parameters and buffers but normalizes each sample's
channels separately (no parameters and no running statistics by default).
These are PyTorch's conventions: MindSpore's ``momentum=0.9`` is PyTorch's 0.1.

Example:
    >>> import unigrad as ug
    >>> bn = ug.nn.BatchNorm1d(2)
    >>> bn(ug.tensor([[1.0, 2.0], [3.0, 6.0]]))
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
    >>> bn.running_mean, bn.num_batches_tracked
    (tensor([0.2000, 0.4000]), tensor(1))
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ...autograd.grad_mode import no_grad
from ...backend import int64
from ...ops.creation import tensor
from ...ops.linalg import einsum
from ...ops.nn_functional import (
    batch_norm,
    group_norm,
    instance_norm,
    layer_norm,
    local_response_norm,
    rms_norm,
)
from ...ops.shape import unsqueeze
from ...tensor import Tensor
from ...transforms.custom import custom_vjp
from .. import init
from ..cell import Cell
from ._common import device_of, floating_dtype, new_buffer, new_parameter, positive_int, real_number
from ._lazy import LazyModuleMixin, UninitializedBuffer, UninitializedParameter


class _NormBase(Cell):
    """The parameters and running statistics shared by batch and instance normalization."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, *, bias: bool = True):
        super().__init__()
        owner = type(self).__name__
        num_features = positive_int(num_features, "num_features", owner, allow_zero=True)
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

    _version = 2  # version 2 added num_batches_tracked (PyTorch's numbering)

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict,
                              strict: bool, missing_keys: list, unexpected_keys: list,
                              error_msgs: list) -> None:
        """Checkpoints older than version 2 have no ``num_batches_tracked``: it loads as 0,
        as PyTorch does."""
        version = local_metadata.get("version")
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats \
                and key not in state_dict:
            state_dict[key] = new_buffer(0, (), int64, self.num_batches_tracked.device)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

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

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """The shared batch normalization; subclasses define ``_check_input_dim``."""

    def construct(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        shape = tuple(input.shape)
        has_channel_tensors = self.affine or self.track_running_stats
        if shape[1] != self.num_features and has_channel_tensors:  # else any C works (PyTorch)
            raise ValueError(f"{type(self).__name__}: expected input with {self.num_features} "
                             f"channels (dimension 1), but got input of size {list(shape)}")
        use_batch_stats = self.training or self.running_mean is None
        if use_batch_stats and shape[0] * math.prod(shape[2:]) == 1:
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


class BatchNorm3d(_BatchNorm):
    """Batch normalization over ``(N, C, D, H, W)`` input, per channel ``C``.

    Example:
        >>> import unigrad as ug
        >>> bn = ug.nn.BatchNorm3d(2)
        >>> bn(ug.arange(16.0).reshape(2, 2, 2, 2, 1)).shape
        (2, 2, 2, 2, 1)
        >>> bn.running_mean
        tensor([0.5500, 0.9500])
    """

    def _check_input_dim(self, input) -> None:
        if len(input.shape) != 5:
            raise ValueError(f"expected 5D input (got {len(input.shape)}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch normalization over ``(N, C, *)`` input; in one process it is :class:`BatchNorm1d`.

    The statistics are those of this process's batch (no cross-process
    reduction: ``process_group`` is kept for PyTorch's signature).

    Example:
        >>> import unigrad as ug
        >>> net = ug.nn.Sequential(ug.nn.Conv2d(1, 2, 1), ug.nn.BatchNorm2d(2))
        >>> ug.nn.SyncBatchNorm.convert_sync_batchnorm(net)[1]
        SyncBatchNorm(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, process_group=None,
                 device=None, dtype=None, *, bias: bool = True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        if len(input.shape) < 2:
            raise ValueError(f"expected at least 2D input (got {len(input.shape)}D input)")
        if input.shape[1] == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    @classmethod
    def convert_sync_batchnorm(cls, module: Cell, process_group=None) -> Cell:
        """``module`` with every BatchNorm layer replaced by a SyncBatchNorm sharing its state.

        Example:
            >>> import unigrad as ug
            >>> type(ug.nn.SyncBatchNorm.convert_sync_batchnorm(ug.nn.BatchNorm1d(3))).__name__
            'SyncBatchNorm'
        """
        output = module
        if isinstance(module, _BatchNorm):
            output = cls(module.num_features, module.eps, module.momentum, module.affine,
                         module.track_running_stats, process_group)
            for name in ("weight", "bias"):
                output.register_parameter(name, getattr(module, name))
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                output.register_buffer(name, getattr(module, name))
            object.__setattr__(output, "training", module.training)
        for name, child in list(module.named_children()):
            output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return output


class _LazyNormBase(LazyModuleMixin):
    """A norm layer whose ``num_features`` is the first input's dimension 1."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *,
                 bias: bool = True):
        super().__init__(0, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)
        dtype, device = floating_dtype(dtype, type(self).__name__), device_of(device)
        for name in ("weight", "bias"):  # assigned in place: the state_dict order stays
            if getattr(self, name) is not None:
                setattr(self, name, UninitializedParameter(device=device, dtype=dtype))
        if self.track_running_stats:
            for name in ("running_mean", "running_var"):
                setattr(self, name, UninitializedBuffer(device=device, dtype=dtype))
        self._lazy_setup()

    def reset_parameters(self) -> None:
        """Reset as the non-lazy layer does, once the parameters have their shapes."""
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        """Take ``num_features`` from ``input.shape[1]`` and materialize the placeholders."""
        if not self.has_uninitialized_params():
            return
        self.num_features = int(input.shape[1])
        for value in list(self._params.values()) + list(self._buffers.values()):
            if isinstance(value, (UninitializedParameter, UninitializedBuffer)):
                value.materialize((self.num_features,))
        self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """:class:`BatchNorm1d` whose ``num_features`` comes from the first input.

    Example:
        >>> import unigrad as ug
        >>> bn = ug.nn.LazyBatchNorm1d()
        >>> bn.num_features, bn.weight
        (0, <UninitializedParameter>)
        >>> _ = bn(ug.ones(4, 3))
        >>> type(bn).__name__, bn.num_features, bn.weight.shape
        ('BatchNorm1d', 3, (3,))
    """

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """:class:`BatchNorm2d` whose ``num_features`` comes from the first input.

    Example:
        >>> import unigrad as ug
        >>> bn = ug.nn.LazyBatchNorm2d()
        >>> bn(ug.ones(2, 5, 2, 2)).shape, bn.weight.shape
        ((2, 5, 2, 2), (5,))
    """

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """:class:`BatchNorm3d` whose ``num_features`` comes from the first input.

    Example:
        >>> import unigrad as ug
        >>> bn = ug.nn.LazyBatchNorm3d(affine=False)
        >>> _ = bn(ug.ones(2, 4, 1, 1, 2))
        >>> bn.running_var.shape, bn.weight
        ((4,), None)
    """

    cls_to_become = BatchNorm3d


# ----------------------------------------------------------------------------- instance norm

class _InstanceNorm(_NormBase):
    """Instance normalization; subclasses name their rank without a batch dimension."""

    _no_batch_dim = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None, *, bias: bool = True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias=bias)

    def _check_input_dim(self, input) -> None:
        ranks = (self._no_batch_dim, self._no_batch_dim + 1)
        if len(input.shape) not in ranks:
            raise ValueError(f"expected {ranks[0]}D or {ranks[1]}D input (got "
                             f"{len(input.shape)}D input)")

    def _instance_norm(self, input: Tensor) -> Tensor:
        return instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                             self.training or not self.track_running_stats,
                             0.0 if self.momentum is None else self.momentum, self.eps)

    def construct(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        feature_dim = len(input.shape) - self._no_batch_dim
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          f"can silence this warning by not passing in num_features, which is "
                          f"not used because affine=False", stacklevel=2)
        if len(input.shape) == self._no_batch_dim:
            return self._instance_norm(unsqueeze(input, 0)).squeeze(0)
        return self._instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Normalize each channel of each sample of ``(N, C, L)`` or ``(C, L)`` input over ``L``.

    By default there are no parameters and no running statistics
    (``affine=False``, ``track_running_stats=False``), as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.InstanceNorm1d(1)(ug.tensor([[1.0, 3.0]]))
        tensor([[-1.0000,  1.0000]])
    """

    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Normalize each channel of each sample of ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.InstanceNorm2d(2, affine=True, track_running_stats=True)
        >>> list(norm.state_dict())
        ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Normalize each channel of each sample of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.InstanceNorm3d(2)
        >>> norm.affine, norm.track_running_stats, norm.weight, norm.running_mean
        (False, False, None, None)
    """

    _no_batch_dim = 4


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """:class:`InstanceNorm1d` whose ``num_features`` comes from the first input's dimension 1.

    Note PyTorch's defaults here: ``affine=True``, ``track_running_stats=True``.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.LazyInstanceNorm1d()
        >>> norm(ug.ones(2, 3, 4)).shape, type(norm).__name__
        ((2, 3, 4), 'InstanceNorm1d')
    """

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """:class:`InstanceNorm2d` whose ``num_features`` comes from the first input's dimension 1.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.LazyInstanceNorm2d()
        >>> _ = norm(ug.ones(1, 2, 3, 3))
        >>> norm.running_mean.shape
        (2,)
    """

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """:class:`InstanceNorm3d` whose ``num_features`` comes from the first input's dimension 1.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.LazyInstanceNorm3d(affine=False)
        >>> _ = norm(ug.ones(1, 2, 2, 1, 1))
        >>> norm.num_features
        2
    """

    cls_to_become = InstanceNorm3d


# ----------------------------------------------------------------------------- group and RMS norm

class GroupNorm(Cell):
    """Normalize each of ``num_groups`` groups of channels of every sample; then per-channel
    ``weight`` (ones) and ``bias`` (zeros) when ``affine``.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.GroupNorm(2, 4)
        >>> norm
        GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
        >>> norm(ug.ones(3, 4, 5)).shape
        (3, 4, 5)
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device=None, dtype=None, *, bias: bool = True):
        super().__init__()
        num_groups = positive_int(num_groups, "num_groups", "GroupNorm")
        num_channels = positive_int(num_channels, "num_channels", "GroupNorm", allow_zero=True)
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = real_number(eps, "eps", "GroupNorm"), bool(affine)
        dtype, device = floating_dtype(dtype, "GroupNorm"), device_of(device)
        self.register_parameter("weight", new_parameter("ones", (num_channels,), dtype, device)
                                if self.affine else None)
        self.register_parameter("bias", new_parameter("zeros", (num_channels,), dtype, device)
                                if self.affine and bias else None)

    def reset_parameters(self) -> None:
        """``weight`` back to 1 and ``bias`` to 0."""
        _reset_affine(self)

    def construct(self, input: Tensor) -> Tensor:
        return group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


def _reset_affine(layer: Cell) -> None:
    if layer.weight is not None:
        init.ones_(layer.weight)
    if getattr(layer, "bias", None) is not None:
        init.zeros_(layer.bias)


def _normalized_shape(normalized_shape, owner: str) -> tuple:
    if isinstance(normalized_shape, (int, np.integer)) and not isinstance(normalized_shape,
                                                                           bool):
        normalized_shape = (normalized_shape,)
    if not isinstance(normalized_shape, (tuple, list)) or not normalized_shape:
        raise TypeError(f"{owner}: argument 'normalized_shape' must be an int or a "
                        f"non-empty tuple of ints, got {normalized_shape!r}")
    return tuple(positive_int(n, "normalized_shape", owner) for n in normalized_shape)


class RMSNorm(Cell):
    """Divide by the root mean square over the trailing ``normalized_shape`` dims, then scale.

    ``eps=None`` uses the machine epsilon of the input's dtype; ``weight``
    (ones of ``normalized_shape``) exists when ``elementwise_affine``.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.RMSNorm(2)
        >>> norm
        RMSNorm((2,), eps=None, elementwise_affine=True)
        >>> norm(ug.tensor([[3.0, 4.0]]))
        tensor([[0.8485, 1.1314]], grad_fn=<MulBackward0>)
    """

    def __init__(self, normalized_shape, eps: float | None = None,
                 elementwise_affine: bool = True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _normalized_shape(normalized_shape, "RMSNorm")
        self.eps = None if eps is None else real_number(eps, "eps", "RMSNorm")
        self.elementwise_affine = bool(elementwise_affine)
        dtype, device = floating_dtype(dtype, "RMSNorm"), device_of(device)
        self.register_parameter("weight", new_parameter("ones", self.normalized_shape, dtype,
                                                        device)
                                if self.elementwise_affine else None)

    def reset_parameters(self) -> None:
        """``weight`` back to 1."""
        _reset_affine(self)

    def construct(self, input: Tensor) -> Tensor:
        return rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


# ----------------------------------------------------------------------------- across channels

class LocalResponseNorm(Cell):
    """Divide by ``(k + alpha * mean of squares over size neighbouring channels) ** beta``.

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.LocalResponseNorm(2)
        >>> norm
        LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
        >>> norm(ug.ones(1, 3, 2)).shape
        (1, 3, 2)
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def construct(self, input: Tensor) -> Tensor:
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


def _cross_map_windows(channels: int, size: int) -> np.ndarray:
    """Row ``c``: how often channel ``j`` enters channel ``c``'s sum of squares.

    PyTorch's legacy ``CrossMapLRN2d`` slides a running sum (add the channel
    entering, subtract the one leaving from channel ``pre_pad + 1`` on);
    these are the windows it produces, channel 0 included throughout.
    """
    pre_pad = int((size - 1) / 2 + 1)
    windows = np.zeros((channels, channels))
    windows[0, :min(pre_pad, channels)] = 1.0
    for channel in range(1, channels):
        windows[channel] = windows[channel - 1]
        if channel < channels - pre_pad + 1:
            windows[channel, channel + pre_pad - 1] += 1.0
        if channel > pre_pad:
            windows[channel, channel - pre_pad] -= 1.0
    return windows


def _cross_map_gradient_windows(channels: int, size: int) -> np.ndarray:
    """Row ``c``: the channels ``j`` whose ratios PyTorch's hand-written backward sums for
    channel ``c`` (``c - s .. c + size - 1 - s`` with ``s = int(size - (size - 1) / 2)``)."""
    shift = int(size - (size - 1) / 2)
    windows = np.zeros((channels, channels))
    for channel in range(channels):
        low, high = max(channel - shift, 0), min(channel + size - 1 - shift, channels - 1)
        windows[channel, low:high + 1] = 1.0
    return windows


def _cross_map_lrn2d(input: Tensor, size: int, alpha: float, beta: float, k: float) -> Tensor:
    """PyTorch's ``CrossMapLRN2d`` function: its forward windows and its backward formula
    (which is not the derivative of that forward: both are reproduced)."""
    channels = input.shape[1]

    def constant(windows: np.ndarray) -> Tensor:
        return tensor(windows, dtype=input.dtype, device=input.device)

    forward_windows = constant(_cross_map_windows(channels, size))
    gradient_windows = constant(_cross_map_gradient_windows(channels, size))

    def scale_of(x: Tensor) -> Tensor:
        return einsum("cj,njhw->nchw", forward_windows, x * x) * (alpha / size) + k

    @custom_vjp
    def normalize(x: Tensor) -> Tensor:
        return x * scale_of(x) ** (-beta)

    def forward(x: Tensor):
        scale = scale_of(x)
        output = x * scale ** (-beta)
        return output, (x, scale, output)

    def backward(residuals, gradient: Tensor):
        x, scale, output = residuals
        ratios = einsum("cj,njhw->nchw", gradient_windows, gradient * output / scale)
        return (scale ** (-beta) * gradient - (2.0 * alpha * beta / size) * x * ratios,)

    normalize.defvjp(forward, backward)
    return normalize(input)


class CrossMapLRN2d(Cell):
    """PyTorch's legacy cross-channel LRN of ``(N, C, H, W)`` input (running-sum windows).

    Values and gradients are PyTorch's, including its quirks: channel 0 stays
    in every window, and the gradient is PyTorch's hand-written formula
    (forward mode is not available).

    Example:
        >>> import unigrad as ug
        >>> norm = ug.nn.CrossMapLRN2d(3, alpha=1.0, beta=1.0)
        >>> norm
        CrossMapLRN2d(3, alpha=1.0, beta=1.0, k=1)
        >>> norm(ug.ones(1, 2, 1, 1)).flatten()
        tensor([0.6000, 0.6000])
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def construct(self, input: Tensor) -> Tensor:
        if len(input.shape) != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {len(input.shape)}D "
                             f"instead.")
        return _cross_map_lrn2d(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


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
        tensor([[-1.0000,  1.0000]], grad_fn=<NativeLayerNormBackward0>)
    """

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _normalized_shape(normalized_shape, "LayerNorm")
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
        _reset_affine(self)

    def construct(self, input: Tensor) -> Tensor:
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LazyBatchNorm1d",
           "LazyBatchNorm2d", "LazyBatchNorm3d", "InstanceNorm1d", "InstanceNorm2d",
           "InstanceNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d",
           "GroupNorm", "RMSNorm", "LocalResponseNorm", "CrossMapLRN2d", "LayerNorm"]
