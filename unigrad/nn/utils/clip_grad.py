"""Gradient clipping in place (PyTorch's ``torch.nn.utils``): ``clip_grad_norm_``,
``clip_grad_value_``, and the two halves of the first, ``get_total_norm`` and
``clip_grads_with_norm_``.

They work on the ``.grad`` of each parameter, skip parameters whose ``.grad``
is None, and run without recording on the tape.

Example:
    >>> import unigrad as ug
    >>> from unigrad.nn.utils import clip_grad_norm_
    >>> w = ug.tensor([1.0, 1.0], requires_grad=True)
    >>> (w * ug.tensor([3.0, 4.0])).sum().backward()
    >>> clip_grad_norm_([w], max_norm=1.0)
    tensor(5.)
    >>> w.grad
    tensor([0.6000, 0.8000])
"""

from __future__ import annotations

import math
import numbers
import types
import warnings
from collections.abc import Iterable

import numpy as np

from ...autograd.grad_mode import no_grad
from ...ops.elementwise import cast, clip
from ...ops.reduce import vector_norm
from ...ops.shape import stack
from ...tensor import Tensor, _make_tensor

_FLOAT32 = np.dtype(np.float32)

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_"]


def _tensor_list(tensors, name: str, function: str) -> list:
    """``tensors`` (a Tensor or an iterable of Tensors) as a list, each element checked."""
    if isinstance(tensors, Tensor):
        return [tensors]
    if not isinstance(tensors, Iterable) or isinstance(tensors, (str, bytes)):
        raise TypeError(f"{function}(): the argument '{name}' must be a Tensor or an iterable of "
                        f"Tensors, but got {type(tensors).__name__}")
    is_generator = isinstance(tensors, types.GeneratorType)
    items = list(tensors)
    for index, item in enumerate(items):
        if not isinstance(item, Tensor):
            raise TypeError(f"{function}(): the argument '{name}' must be a Tensor or an iterable "
                            f"of Tensors, but element {index} is {type(item).__name__}")
    if is_generator and not items and function == "clip_grad_norm_":
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                      stacklevel=3)
    return items


def _number(value, name: str, function: str) -> float:
    """A non-negative float from a number (or a one-element Tensor); errors name the argument."""
    if isinstance(value, Tensor) and value.numel() == 1:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{function}(): the argument '{name}' must be a number, but got "
                        f"{type(value).__name__}")
    value = float(value)
    if not value >= 0.0:  # NaN fails too
        raise ValueError(f"{function}(): the argument '{name}' must be >= 0, but got {value}")
    return value


def _norm_type(norm_type) -> float:
    try:
        return float(norm_type)  # PyTorch accepts 'inf' as a string
    except (TypeError, ValueError) as error:  # PyTorch's float(): a str is a ValueError
        raise type(error)(f"the argument 'norm_type' must be a number or 'inf', but got "
                          f"{norm_type!r}") from None


def _check_foreach(foreach) -> None:
    if foreach is not None and not isinstance(foreach, (bool, np.bool_)):
        raise TypeError(f"the argument 'foreach' must be None or a bool, but got "
                        f"{type(foreach).__name__}")


def _norm(tensor: Tensor, norm_type: float) -> Tensor:
    """The tensor's norm, accumulated in float32 at least (float16 squares overflow)."""
    if tensor._data.dtype.kind == "f" and tensor._data.dtype.itemsize < 4:
        return vector_norm(tensor, norm_type, dtype=_FLOAT32)
    return cast(vector_norm(tensor, norm_type), np.result_type(tensor._data.dtype, _FLOAT32))


def get_total_norm(tensors: Tensor | Iterable[Tensor], norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """The ``norm_type``-norm of all ``tensors`` together, as if concatenated into one vector.

    ``tensors`` is a Tensor or an iterable of Tensors (an empty one gives
    ``tensor(0.)``); ``norm_type`` is any number, or ``inf`` / ``'inf'``.
    With ``error_if_nonfinite=True`` a NaN or infinite total raises
    RuntimeError. ``foreach`` selects PyTorch's kernel and has no effect here.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import get_total_norm
        >>> get_total_norm([ug.tensor([3.0]), ug.tensor([[4.0]])])
        tensor(5.)
        >>> get_total_norm([ug.tensor([3.0]), ug.tensor([-4.0])], norm_type="inf")
        tensor(4.)
    """
    tensors = _tensor_list(tensors, "tensors", "get_total_norm")
    norm_type = _norm_type(norm_type)
    _check_foreach(foreach)
    if not tensors:
        return _make_tensor(np.asarray(0.0, np.float32))
    with no_grad():
        norms = [_norm(t, norm_type) for t in tensors]
        dtype = np.result_type(*(t._data.dtype for t in tensors))
        total = cast(vector_norm(stack([_on_device_of(n, norms[0]) for n in norms]), norm_type),
                     dtype)
    if error_if_nonfinite and not math.isfinite(float(total)):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` "
                           f"is non-finite, so it cannot be clipped. To disable this error and "
                           f"scale the gradients by the non-finite norm anyway, set "
                           f"`error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float,
                          total_norm: Tensor | float,
                          foreach: bool | None = None) -> None:
    """Scale each ``.grad`` in place by ``min(max_norm / (total_norm + 1e-6), 1)``.

    ``total_norm`` is a precomputed norm (see :func:`get_total_norm`).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import clip_grads_with_norm_
        >>> w = ug.tensor([0.0, 0.0], requires_grad=True)
        >>> w.grad = ug.tensor([6.0, 8.0])
        >>> clip_grads_with_norm_(w, max_norm=5.0, total_norm=ug.tensor(10.0))
        >>> w.grad
        tensor([3.0000, 4.0000])
    """
    parameters = _tensor_list(parameters, "parameters", "clip_grads_with_norm_")
    max_norm = _number(max_norm, "max_norm", "clip_grads_with_norm_")
    if not isinstance(total_norm, Tensor):
        if isinstance(total_norm, (bool, np.bool_)) or not isinstance(total_norm, numbers.Real):
            raise TypeError(f"clip_grads_with_norm_(): the argument 'total_norm' must be a Tensor "
                            f"or a number, but got {type(total_norm).__name__}")
        total_norm = _make_tensor(np.asarray(total_norm, np.float32))
    _check_foreach(foreach)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return
    with no_grad():
        coefficient = clip(max_norm / (total_norm.detach() + 1e-6), max=1.0)
        for grad in grads:
            grad.mul_(_on_device_of(cast(coefficient, grad.dtype), grad))


def _on_device_of(value: Tensor, like: Tensor) -> Tensor:
    return value if value.device == like.device else value.to(like.device)


def clip_grad_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Clip the gradients' global ``norm_type``-norm to ``max_norm``, in place.

    The norm is taken over all ``.grad`` of ``parameters`` (a Tensor or an
    iterable of Tensors; None gradients are skipped) as one vector; each
    gradient is multiplied by ``min(max_norm / (total_norm + 1e-6), 1)``.
    Returns the total norm before clipping (``tensor(0.)`` when there are no
    gradients). ``error_if_nonfinite=True`` raises RuntimeError, before
    anything changes, when that norm is NaN or infinite. PyTorch semantics;
    ``max_norm`` must be >= 0 (PyTorch silently flips the gradients' sign for
    a negative one).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import clip_grad_norm_
        >>> a = ug.tensor([0.0], requires_grad=True)
        >>> b = ug.tensor([0.0, 0.0], requires_grad=True)
        >>> a.grad, b.grad = ug.tensor([-2.0]), ug.tensor([1.0, 0.5])
        >>> clip_grad_norm_([a, b], max_norm=1.0, norm_type=float("inf"))
        tensor(2.)
        >>> a.grad, b.grad
        (tensor([-1.0000]), tensor([0.5000, 0.2500]))
    """
    parameters = _tensor_list(parameters, "parameters", "clip_grad_norm_")
    max_norm = _number(max_norm, "max_norm", "clip_grad_norm_")
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every ``.grad`` of ``parameters`` into ``[-clip_value, clip_value]``, in place.

    ``parameters`` is a Tensor or an iterable of Tensors (None gradients are
    skipped); ``clip_value`` must be >= 0. Returns None, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import clip_grad_value_
        >>> w = ug.tensor([0.0, 0.0, 0.0], requires_grad=True)
        >>> w.grad = ug.tensor([-3.0, 0.5, 2.0])
        >>> clip_grad_value_(w, clip_value=1.0)
        >>> w.grad
        tensor([-1.0000,  0.5000,  1.0000])
    """
    parameters = _tensor_list(parameters, "parameters", "clip_grad_value_")
    clip_value = _number(clip_value, "clip_value", "clip_grad_value_")
    _check_foreach(foreach)
    with no_grad():
        for parameter in parameters:
            if parameter.grad is not None:
                parameter.grad.clamp_(min=-clip_value, max=clip_value)
