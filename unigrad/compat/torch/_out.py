"""PyTorch's ``out=`` argument for the functions of ``unigrad.compat.torch``.

``torch.add(a, b, out=c)`` computes the op and writes the result into ``c``
(returned), as PyTorch does:

- ``out`` is a Tensor (a tuple of Tensors for ops with several results, such as
  ``torch.sort(x, out=(values, indices))``);
- the result's dtype must cast to ``out``'s under "same kind" rules (a float
  result does not go into an integer ``out``);
- an ``out`` of another shape is resized (with PyTorch's deprecation warning
  unless it was empty); unlike PyTorch, a tensor sharing memory with a view is
  not resized (a ``RuntimeError``);
- ``out=`` does not record gradients: when an input or ``out`` requires grad
  (and grad mode is on) it is a ``RuntimeError``.

Nothing is written when any check fails. Only the ``unigrad.compat.torch``
spellings take ``out=``; ``unigrad``'s own functions and Tensor methods do not
pay for the extra argument.

Example:
    >>> import unigrad.compat.torch as torch
    >>> result = torch.zeros(2)
    >>> torch.add(torch.tensor([1.0, 2.0]), 1.0, out=result)
    tensor([2., 3.])
    >>> result
    tensor([2., 3.])
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable

import numpy as np

from ... import _state
from ...backend import namespace_of
from ...ops._dtypes import torch_dtype_name
from ...tensor import Tensor


def _leaves(result) -> list:
    return list(result) if isinstance(result, tuple) else [result]


def _check_pair(name: str, result, out) -> None:
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if not isinstance(result, Tensor):
        raise TypeError(f"{name}() does not return a tensor, so it takes no 'out' argument")
    if _state.local.grad_enabled and (result.requires_grad or out.requires_grad):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           f"differentiation, but one of the arguments requires grad.")
    source, target = result._data.dtype, out._data.dtype
    if not np.can_cast(source, target, casting="same_kind"):
        raise RuntimeError(f"result type {torch_dtype_name(source)} can't be cast to the "
                           f"desired output type {torch_dtype_name(target)}")
    if tuple(out.shape) != tuple(result.shape) and out._vc is not None:
        raise RuntimeError(f"{name}(): cannot resize 'out', which shares its memory with a view, "
                           f"from {list(out.shape)} to {list(result.shape)}")


def _write(result: Tensor, out: Tensor) -> None:
    shape = tuple(result.shape)
    if tuple(out.shape) != shape:
        if out.numel():
            warnings.warn(f"An output with one or more elements was resized since it had shape "
                          f"{list(out.shape)}, which does not match the required output shape "
                          f"{list(shape)}. This behavior is deprecated, and in a future PyTorch "
                          f"release outputs will not be resized unless they have zero elements. "
                          f"You can explicitly reuse an out tensor t by resizing it, inplace, to "
                          f"zero elements with t.resize_(0).", UserWarning, stacklevel=4)
        out._data = namespace_of(out._data).empty(shape, out._data.dtype)
    out._bump_version()
    out._data[...] = result._data


def with_out(function: Callable) -> Callable:
    """``function`` taking PyTorch's ``out=`` keyword (see the module docstring)."""
    name = function.__name__

    @functools.wraps(function)
    def call(*args, out=None, **kwargs):
        result = function(*args, **kwargs)
        if out is None:
            return result
        results = _leaves(result)
        outs = list(out) if isinstance(result, tuple) and isinstance(out, (tuple, list)) \
            else [out]
        if len(outs) != len(results):
            raise TypeError(f"{name}(): argument 'out' must be a tuple of {len(results)} "
                            f"Tensors, got {len(outs)}")
        for result_leaf, out_leaf in zip(results, outs):
            _check_pair(name, result_leaf, out_leaf)
        for result_leaf, out_leaf in zip(results, outs):
            _write(result_leaf, out_leaf)
        if isinstance(result, tuple):
            return type(result)(*outs) if hasattr(result, "_fields") else tuple(outs)
        return out
    call.__wrapped_op__ = function
    return call


def unwrapped(function: Callable) -> Callable:
    """The unigrad function behind a :func:`with_out` wrapper (itself for anything else)."""
    return getattr(function, "__wrapped_op__", function)


def install(namespace: dict, names) -> None:
    """Give each function ``namespace[name]`` the ``out=`` keyword."""
    for name in names:
        function = namespace.get(name)
        if callable(function) and not isinstance(function, type):
            namespace[name] = with_out(function)
