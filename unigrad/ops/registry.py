"""Declarations of public ops: their Tensor methods, in-place variants and autocast policy.

A primitive's computation is declared by its :class:`~unigrad.ops._primitive.Primitive`
record; the public function users call (with argument parsing, dtype promotion
and PyTorch's errors) is declared once with :func:`op`:

- ``methods``: the Tensor method names that call it (``x.exp()``);
- ``inplace``: the in-place Tensor methods (``x.exp_()``), which compute the op
  and write the result into the tensor (:mod:`unigrad.ops.inplace`: the version
  counter is bumped and the tape rebased);
- ``autocast``: for a composite op, the policy of its whole body inside
  ``amp.autocast``: ``"lower"`` (floating inputs cast to the autocast dtype),
  ``"float32"`` (half-precision inputs cast up to float32) or ``"inputs"`` (run
  in the inputs' dtypes); its internal ops are not cast again. Primitives carry
  their own policy in their record.

:func:`declared_ops` lists every declaration; the methods are attached to
:class:`~unigrad.tensor.Tensor` as each op is declared.

Example:
    >>> import unigrad as ug
    >>> from unigrad.ops.registry import op
    >>> @op(methods=("double_it",))
    ... def double_it(input):
    ...     return input * 2.0
    >>> double_it(ug.tensor([1.0]))
    tensor([2.])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from .. import _state

_local = _state.local
_POLICIES = (None, "lower", "float32", "inputs")


@dataclass(frozen=True)
class OpDeclaration:
    """What :func:`op` recorded about one public function."""

    function: Callable
    methods: tuple
    inplace: tuple
    autocast: str | None


_DECLARED: list[OpDeclaration] = []


def op(*, methods: tuple = (), inplace: tuple = (), autocast: str | None = None) -> Callable:
    """Declare a public op function (a decorator); see the module docstring."""
    if autocast not in _POLICIES:
        raise ValueError(f"autocast must be one of {_POLICIES}, got {autocast!r}")

    def declare(function: Callable) -> Callable:
        public = function if autocast is None else _with_policy(function, autocast)
        declaration = OpDeclaration(public, tuple(methods), tuple(inplace), autocast)
        _DECLARED.append(declaration)
        install_methods(declaration)
        return public
    return declare


def install_methods(declaration: OpDeclaration) -> None:
    """Attach a declared op's Tensor methods and in-place variants to Tensor."""
    from ..tensor import Tensor
    for name in declaration.methods:
        setattr(Tensor, name, declaration.function)
    for name in declaration.inplace:
        setattr(Tensor, name, _inplace_method(declaration.function, name))


def _inplace_method(function: Callable, name: str) -> Callable:
    def inplace_method(self, *args, **kwargs):
        from .inplace import apply_inplace
        return apply_inplace(self, function, *args, **kwargs)
    inplace_method.__name__ = name
    inplace_method.__doc__ = f"In-place :func:`{function.__name__}`; returns self."
    return inplace_method


def _with_policy(function: Callable, policy: str) -> Callable:
    @functools.wraps(function)
    def autocast_policy(*args, **kwargs):
        if _local.autocast_dtype is None:
            return function(*args, **kwargs)
        from ..amp.autocast import call_with_policy
        return call_with_policy(policy, function, args, kwargs)
    autocast_policy.autocast = policy
    return autocast_policy


def declared_ops() -> list[OpDeclaration]:
    """Every public op declared with :func:`op`, in declaration order."""
    return list(_DECLARED)
