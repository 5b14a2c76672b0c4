"""The forward-mode interpreter: results of ops on dual tensors carry tangents.

Active while a forward-AD level is open (``dual_level``, ``ug.jvp``,
``jacfwd``): the parent computes the primal result, then each open level's
tangent is computed from the inputs' tangents with the primitive's ``jvp``
rule (:func:`unigrad.autograd.forward_ad.propagate`).

Example:
    >>> import unigrad as ug
    >>> import unigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 0.0]))
    ...     y = x * x
    ...     fwAD.unpack_dual(y).tangent
    tensor([2., 0.])
"""

from __future__ import annotations

from .. import _state
from ..tensor import Tensor
from . import Interpreter

_local = _state.local


class ForwardInterpreter(Interpreter):
    """Propagates tangents after the parent computed the primal."""

    __slots__ = ()

    def process(self, prim, args: tuple, params: dict):
        result = self.process_parent(prim, args, params)
        if _local.forward_levels and isinstance(result, Tensor):
            from ..autograd.forward_ad import propagate
            propagate(prim, args, params, result)
        return result
