"""MindSpore's normalization and embedding layers (``nn.BatchNorm1d/2d``, ``nn.LayerNorm``,
``nn.GroupNorm``, ``nn.Embedding``) with MindSpore's Parameter names (``gamma``, ``beta``,
``moving_mean``, ``moving_variance``, ``embedding_table``) and conventions: BatchNorm's
``momentum=0.9`` keeps 90% of the moving statistics per step.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> norm = nn.LayerNorm((3,))
    >>> print(norm(ms.Tensor([[1.0, 2.0, 4.0]])))
    [[-1.0690448  -0.26726118  1.3363062 ]]
"""

from __future__ import annotations

from ...nn import functional as _functional
from ._tensor import Parameter, Tensor
from .common.initializer import initializer
from .dtype import float32
from .nn import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "Embedding"]


def _parameter(init, shape: tuple, dtype, name: str, requires_grad: bool = True) -> Parameter:
    return Parameter(initializer(init, shape, dtype), name=name, requires_grad=requires_grad)


def _positive_int(value, name: str, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be a positive int, but got "
                         f"{value!r}.")
    return value


class _BatchNorm(Cell):
    """MindSpore's batch normalization over axis 1 of ``_rank``-d inputs."""

    _ranks: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics: bool | None = None, data_format: str = "NCHW",
                 dtype=float32):
        super().__init__()
        owner = type(self).__name__
        if isinstance(num_features, bool) or not isinstance(num_features, int) \
                or num_features < 1:
            raise ValueError(f"For '{owner}', the 'num_features' must be at least 1, but got "
                             f"{num_features}.")
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"For '{owner}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{owner}', the 'data_format' must be 'NCHW' (the only "
                             f"layout unigrad supports), but got '{data_format}'.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.use_batch_statistics, self.format = use_batch_statistics, data_format
        shape = (num_features,)
        # named as in a parent Cell (MindSpore names them "mean"/"variance" when alone)
        self.moving_mean = _parameter(moving_mean_init, shape, dtype, "moving_mean", False)
        self.moving_variance = _parameter(moving_var_init, shape, dtype, "moving_variance",
                                          False)
        self.gamma = _parameter(gamma_init, shape, dtype, "gamma", affine)
        self.beta = _parameter(beta_init, shape, dtype, "beta", affine)

    def _uses_batch_statistics(self) -> bool:
        if self.use_batch_statistics is None:
            return self.training
        return self.use_batch_statistics

    def construct(self, x):
        if x.ndim not in self._ranks:
            expected = " or ".join(str(rank) for rank in self._ranks)
            raise ValueError(f"For '{type(self).__name__}', the in_shape must have "
                             f"{expected} dims, but got {x.ndim}.")
        return _functional.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma,
                                      self.beta, self._uses_batch_statistics(),
                                      1.0 - self.momentum, self.eps)

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, "
                f"momentum={self.momentum}, gamma={self.gamma}, beta={self.beta}, "
                f"moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """``nn.BatchNorm1d(num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
    beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones',
    use_batch_statistics=None, data_format='NCHW', dtype=ms.float32)``: batch normalization
    of ``(N, C)`` or ``(N, C, L)`` inputs.

    In training (``set_train()``, or ``use_batch_statistics=True``) it normalizes with the
    batch's statistics and updates ``moving = momentum * moving + (1 - momentum) * batch``
    (the unbiased variance); otherwise it uses ``moving_mean``/``moving_variance``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> bn = nn.BatchNorm1d(2).set_train()
        >>> print(bn(ms.Tensor([[0.0, 1.0], [2.0, 5.0]])))
        [[-0.999995  -0.9999988]
         [ 0.999995   0.9999988]]
        >>> print(bn.moving_mean.asnumpy())
        [0.1 0.3]
    """

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """``nn.BatchNorm2d(num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
    beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones',
    use_batch_statistics=None, data_format='NCHW', dtype=ms.float32)``: batch normalization
    of ``(N, C, H, W)`` inputs per channel (see :class:`BatchNorm1d`).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> bn = nn.BatchNorm2d(1)
        >>> bn.gamma
        Parameter (name=gamma, shape=(1,), dtype=Float32, requires_grad=True)
        >>> print(bn.set_train(False)(ms.Tensor([[[[2.0]]]])))
        [[[[1.99999]]]]
    """

    _ranks = (4,)


class BatchNorm3d(Cell):
    """``nn.BatchNorm3d(num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
    beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones',
    use_batch_statistics=None, dtype=ms.float32)``: batch normalization of
    ``(N, C, D, H, W)`` inputs, run (as in MindSpore) by its child ``bn2d``, a
    :class:`BatchNorm2d` over ``(N, C, D * H, W)``.

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> [p.name for p in nn.BatchNorm3d(2).get_parameters()]
        ['bn2d.moving_mean', 'bn2d.moving_variance', 'bn2d.gamma', 'bn2d.beta']
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics: bool | None = None, dtype=float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                moving_mean_init, moving_var_init, use_batch_statistics,
                                "NCHW", dtype)

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"For 'BatchNorm3d', the in_shape must have 5 dims, but got "
                             f"{x.ndim}.")
        batch, channels, depth, height, width = x.shape
        flat = x.reshape(batch, channels, depth * height, width)
        return self.bn2d(flat).reshape(batch, channels, depth, height, width)


class LayerNorm(Cell):
    """``nn.LayerNorm(normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
    gamma_init='ones', beta_init='zeros', epsilon=1e-7, dtype=ms.float32)``: normalizes over
    the axes from ``begin_norm_axis`` on, then scales by ``gamma`` and shifts by ``beta``
    (of shape ``normalized_shape``, the input's axes from ``begin_params_axis`` on).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.LayerNorm((2, 3), begin_norm_axis=1, begin_params_axis=1)
        LayerNorm(normalized_shape=(2, 3), begin_norm_axis=1, begin_params_axis=1, \
gammaParameter (name=gamma, shape=(2, 3), dtype=Float32, requires_grad=True), \
beta=Parameter (name=beta, shape=(2, 3), dtype=Float32, requires_grad=True))
    """

    def __init__(self, normalized_shape, begin_norm_axis: int = -1, begin_params_axis: int = -1,
                 gamma_init="ones", beta_init="zeros", epsilon: float = 1e-7, dtype=float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] "
                            f"or list[int], but got {normalized_shape} and the type is "
                            f"{type(normalized_shape)}.")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = epsilon
        self.gamma = _parameter(gamma_init, tuple(normalized_shape), dtype, "gamma")
        self.beta = _parameter(beta_init, tuple(normalized_shape), dtype, "beta")

    def construct(self, x):
        axis = self.begin_norm_axis % x.ndim
        normalized = _functional.layer_norm(x, tuple(x.shape[axis:]), eps=self.epsilon)
        return normalized * self.gamma + self.beta

    def extend_repr(self) -> str:
        # MindSpore's text runs "gamma" into the Parameter with no "="
        return (f"normalized_shape={self.normalized_shape}, "
                f"begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, "
                f"beta={self.beta}")


class GroupNorm(Cell):
    """``nn.GroupNorm(num_groups, num_channels, eps=1e-5, affine=True, gamma_init='ones',
    beta_init='zeros', dtype=ms.float32)``: normalizes each of ``num_groups`` channel groups
    of ``(N, C, ...)`` inputs, then applies the per-channel ``gamma`` and ``beta``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.GroupNorm(1, 2)(ms.Tensor([[[1.0], [3.0]]])))
        [[[-0.999995]
          [ 0.999995]]]
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, gamma_init="ones", beta_init="zeros", dtype=float32):
        super().__init__()
        num_groups = _positive_int(num_groups, "num_groups", "GroupNorm")
        num_channels = _positive_int(num_channels, "num_channels", "GroupNorm")
        if num_channels % num_groups != 0:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by "
                             f"'num_groups', but got 'num_channels': {num_channels}, "
                             f"'num_groups': {num_groups}.")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        self.gamma = _parameter(gamma_init, (num_channels,), dtype, "gamma", affine)
        self.beta = _parameter(beta_init, (num_channels,), dtype, "beta", affine)

    def construct(self, x):
        return _functional.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class Embedding(Cell):
    """``nn.Embedding(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal',
    dtype=ms.float32, padding_idx=None)``: row ``i`` of ``embedding_table`` (of shape
    ``(vocab_size, embedding_size)``) for each index ``i`` of an integer input; the row
    ``padding_idx`` starts at zero.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> embedding = nn.Embedding(3, 2, embedding_table="ones", padding_idx=0)
        >>> embedding(ms.Tensor([[0, 2]], ms.int32))
        Tensor(shape=[1, 2, 2], dtype=Float32, value=
        [[[0.00000000e+000, 0.00000000e+000],
          [1.00000000e+000, 1.00000000e+000]]])
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table="normal", dtype=float32, padding_idx: int | None = None):
        super().__init__()
        self.vocab_size = _positive_int(vocab_size, "vocab_size", "Embedding")
        self.embedding_size = _positive_int(embedding_size, "embedding_size", "Embedding")
        if padding_idx is not None and not 0 <= padding_idx < vocab_size:
            raise ValueError(f"For 'Embedding', the 'padding_idx' must be in range of [0, "
                             f"{vocab_size}), but got {padding_idx} with type "
                             f"'{type(padding_idx).__name__}'.")
        self.use_one_hot, self.dtype, self.padding_idx = use_one_hot, dtype, padding_idx
        table = initializer(embedding_table, (vocab_size, embedding_size), dtype).asnumpy()
        table = table.astype(table.dtype, copy=True)
        if padding_idx is not None:
            table[padding_idx] = 0
        self.embedding_table = Parameter(Tensor(table), name="embedding_table")

    def construct(self, ids):
        return _functional.embedding(ids, self.embedding_table)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")
