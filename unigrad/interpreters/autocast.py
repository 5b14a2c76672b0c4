"""The autocast interpreter: run each primitive in the precision its declaration asks for.

Active inside ``with ug.amp.autocast():``. A primitive declared with
``autocast="lower"`` (matmul, einsum) gets its floating inputs cast to the
autocast dtype (float64 is never cast down, as in PyTorch); one declared with
``autocast="float32"`` (reductions, softmax) gets half-precision inputs cast up
to float32; the others follow their inputs. Composite ops declare a policy for
their whole body with :func:`unigrad.ops.registry.op`.

Example:
    >>> import unigrad as ug
    >>> with ug.amp.autocast():
    ...     (ug.ones((2, 2)) @ ug.ones((2, 2))).dtype, ug.ones(2, dtype=ug.float16).sum().dtype
    (unigrad.float16, unigrad.float32)
"""

from __future__ import annotations

from .. import _state
from . import Interpreter

_local = _state.local


class AutocastInterpreter(Interpreter):
    """Casts a primitive's inputs by its ``autocast`` policy, then hands it to the parent."""

    __slots__ = ()

    def process(self, prim, args: tuple, params: dict):
        policy = prim.autocast
        dtype = _local.autocast_dtype
        if policy is not None and dtype is not None:
            from ..amp.autocast import convert_for
            args = tuple(convert_for(policy, value, dtype) for value in args)
        return self.process_parent(prim, args, params)
