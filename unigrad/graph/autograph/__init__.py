"""AutoGraph for ``ug.jit``: Python ``if``/``while``/``for`` on traced tensors become graph
control flow.

:func:`convert` rewrites a function's source (:mod:`.transformer`, after
:mod:`.lowering` turns ``break``/``continue``/``return`` into flags and
:mod:`.analysis` finds each statement's live variables) so each statement calls
an operator of :mod:`.operators`, which runs plain Python when the condition has
a value and ``cond``/``while_loop``/``fori_loop`` when it is traced (:mod:`.values`
carries the statement's variables through them).

Example:
    >>> import unigrad as ug
    >>> from unigrad.graph.autograph import convert
    >>> def clip_norm(x, limit):
    ...     norm = (x * x).sum().sqrt()
    ...     if norm > limit:
    ...         x = x * (limit / norm)
    ...     return x
    >>> f = ug.jit(convert(clip_norm))
    >>> f(ug.tensor([3.0, 4.0]), 1.0), f(ug.tensor([0.3, 0.4]), 1.0), f.trace_count
    (tensor([0.6000, 0.8000]), tensor([0.3000, 0.4000]), 1)
"""

from .conversion import convert, converted_call
from .values import AutographError

__all__ = ["convert", "converted_call", "AutographError"]
