"""Which tensors requiring grad a function reads besides its arguments (its closure).

``custom_gradient`` needs them as TensorFlow's "variables" and ``checkpoint``
as extra inputs of its graph node. :class:`closure_tensors` finds them by
watching every primitive the current thread applies while it is active.

Example:
    >>> import unigrad as ug
    >>> from unigrad.transforms._closure import closure_tensors
    >>> w = ug.tensor(2.0, requires_grad=True)
    >>> x = ug.tensor(3.0, requires_grad=True)
    >>> with ug.no_grad(), closure_tensors(excluded=[x]) as found:
    ...     y = x * w + 1.0
    >>> found.tensors == [w]
    True
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from ..interpreters import eager
from ..tensor import Tensor

__all__ = ["closure_tensors"]

_observers_lock = threading.Lock()


class closure_tensors:
    """Context manager collecting the tensors that require grad read by primitives while active.

    Only primitives applied by the thread that entered it count; the
    ``excluded`` tensors (a function's own arguments) are left out. The found
    tensors are in ``tensors``, in the order of their first use.
    """

    def __init__(self, excluded: Iterable = ()):
        self._excluded_tensors = [t for t in excluded if isinstance(t, Tensor)]
        self._seen = {id(t) for t in self._excluded_tensors}
        self._thread = None
        self.tensors: list[Tensor] = []

    def __enter__(self) -> closure_tensors:
        self._thread = threading.get_ident()
        # copy-on-write: a thread iterating the observers while another one enters or
        # leaves a block keeps a consistent list
        with _observers_lock:
            eager.observers = [*eager.observers, self._observe]
        return self

    def __exit__(self, *exc) -> bool:
        with _observers_lock:
            eager.observers = [o for o in eager.observers if o != self._observe]
        return False

    def _observe(self, prim, args, params, out) -> None:
        if threading.get_ident() != self._thread:
            return
        for value in args:
            if isinstance(value, Tensor) and value._requires_grad and id(value) not in self._seen:
                self._seen.add(id(value))
                self.tensors.append(value)

