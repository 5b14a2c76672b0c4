"""Lazy modules (PyTorch's ``LazyLinear``, ``LazyBatchNorm1d``...): shapes from the first input.

A lazy module starts with :class:`UninitializedParameter` weights (and
:class:`UninitializedBuffer` buffers) that hold no values. Its first call
runs ``initialize_parameters(*inputs)``, which materializes them with the
shapes the input implies and resets them; then the module turns into its
``cls_to_become`` (``LazyLinear`` becomes ``Linear``). Loading a
``state_dict`` into a lazy module materializes them with the stored shapes.

Reusable: subclass ``(LazyModuleMixin, SomeLayer)``, build the layer, replace
the lazy weights with ``UninitializedParameter()``, call
``self._lazy_setup()`` and define ``initialize_parameters``.

Example:
    >>> import unigrad as ug
    >>> layer = ug.nn.LazyLinear(2)
    >>> layer.weight
    <UninitializedParameter>
    >>> layer(ug.ones(4, 3)).shape
    (4, 2)
    >>> type(layer).__name__, layer.weight.shape
    ('Linear', (2, 3))
"""

from __future__ import annotations

import numpy as np

from ...backend import DType, to_device, to_numpy_dtype
from ...tensor import Tensor
from ..parameter import Parameter
from ._common import device_of, floating_dtype


def _empty_like_spec(shape: tuple, dtype: DType, device) -> np.ndarray:
    data = np.empty(tuple(int(n) for n in shape), dtype=to_numpy_dtype(dtype))
    return data if device is None else to_device(data, device)


class _Uninitialized:
    """What the two placeholders share: a dtype and device to materialize with."""

    __slots__ = ()
    cls_to_become: type = Tensor

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Give the placeholder storage of ``shape`` (uninitialized values); it becomes a
        plain ``cls_to_become`` (Parameter or Tensor)."""
        if isinstance(shape, (int, np.integer)):
            shape = (int(shape),)
        dtype = floating_dtype(self.dtype if dtype is None else dtype, type(self).__name__)
        device = device_of(device) if device is not None else self.device
        self._data = _empty_like_spec(tuple(shape), dtype, device)
        self._bump_version()
        self.__class__ = self.cls_to_become

    def __deepcopy__(self, memo):
        copied = type(self)(self.requires_grad, self.device, self.dtype)
        memo[id(self)] = copied
        return copied

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class UninitializedParameter(_Uninitialized, Parameter):
    """A Parameter without a shape yet; :meth:`materialize` gives it one (PyTorch's).

    Example:
        >>> import unigrad as ug
        >>> weight = ug.nn.UninitializedParameter()
        >>> weight
        <UninitializedParameter>
        >>> weight.materialize((2, 3))
        >>> type(weight).__name__, weight.shape, weight.requires_grad
        ('Parameter', (2, 3), True)
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device=None, dtype=None):
        dtype = floating_dtype(dtype, "UninitializedParameter")
        super().__init__(_empty_like_spec((0,), dtype, device_of(device)),
                         requires_grad=requires_grad)


class UninitializedBuffer(_Uninitialized, Tensor):
    """A buffer without a shape yet; :meth:`materialize` gives it one (PyTorch's).

    Example:
        >>> import unigrad as ug
        >>> buffer = ug.nn.UninitializedBuffer()
        >>> buffer.materialize(3)
        >>> buffer.shape
        (3,)
    """

    __slots__ = ()
    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device=None, dtype=None):
        dtype = floating_dtype(dtype, "UninitializedBuffer")
        super().__init__(_empty_like_spec((0,), dtype, device_of(device)),
                         requires_grad=requires_grad)


def _is_uninitialized(value) -> bool:
    return isinstance(value, _Uninitialized)


class LazyModuleMixin:
    """Shape inference on the first call for a layer whose weights start uninitialized.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.LazyLinear(3).has_uninitialized_params()
        True
    """

    cls_to_become: type | None = None

    def _lazy_setup(self) -> None:
        handle = self.register_forward_pre_hook(_infer_parameters)
        object.__setattr__(self, "_initialize_hook", handle)

    def has_uninitialized_params(self) -> bool:
        """Whether any own parameter or buffer is still an uninitialized placeholder."""
        return any(_is_uninitialized(value) for value in
                   list(self._params.values()) + list(self._buffers.values()))

    def initialize_parameters(self, *args, **kwargs) -> None:  # pragma: no cover - abstract
        """Materialize the parameters from the first inputs (each lazy layer defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for "
                                  f"{type(self).__name__}")

    def _finish_initialization(self) -> None:
        self._initialize_hook.remove()
        if self.cls_to_become is not None:
            self.__class__ = self.cls_to_become

    def _materialize_from(self, state_dict, prefix: str = "") -> None:
        """Give each placeholder the shape of its entry ``prefix + name`` in ``state_dict``."""
        for name, value in list(self._params.items()) + list(self._buffers.items()):
            if _is_uninitialized(value) and prefix + name in state_dict:
                value.materialize(tuple(state_dict[prefix + name].shape))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs) -> None:
        """Materialize the placeholders with the stored shapes, then load as usual (also when
        the lazy module is nested in another one)."""
        self._materialize_from(state_dict, prefix)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)


def _infer_parameters(module, args) -> None:
    """The forward pre-hook: materialize from ``args``, then become the non-lazy class."""
    module.initialize_parameters(*args)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {type(module).__name__} has not been fully initialized")
    module._finish_initialization()


__all__ = ["UninitializedParameter", "UninitializedBuffer", "LazyModuleMixin"]
