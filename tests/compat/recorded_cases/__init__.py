"""Cases run twice: by the real framework (recorder) and by unigrad's front-end (test).

A case is a function of the framework module (``def case_name(tf)`` or
``def case_name(ms)``) returning NumPy arrays, numbers, strings, or lists,
tuples and dicts of them. ``tools/record_frameworks.py`` runs every case with
the real TensorFlow or MindSpore and stores the :func:`encode`-d results in
``tests/records/<framework>.json``; ``tests/compat/test_recorded_frameworks.py``
runs the same cases on ``unigrad.compat.tensorflow``/``mindspore`` and
compares. A case that raises is recorded as its exception's type name and
message.

This package imports only the standard library and NumPy, so that it runs in
the frameworks' own environments (which do not have unigrad).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

# default tolerance of floating-point comparisons (float32 arithmetic, several steps)
DEFAULT_RTOL = 1e-6
DEFAULT_ATOL = 1e-7


def case(function: Callable | None = None, *, rtol: float = DEFAULT_RTOL,
         atol: float = DEFAULT_ATOL, same_message: bool = False):
    """Mark ``function`` as a recorded case, with its float tolerances.

    Usable bare (``@case``) or with options (``@case(rtol=1e-5)``);
    ``same_message=True``: when the framework raised, the message must match too.

    Example:
        >>> @case(rtol=1e-4)
        ... def case_double(tf):
        ...     return 2.0
        >>> case_double.rtol, case_double.atol, case_double.same_message
        (0.0001, 1e-07, False)
    """

    def mark(target: Callable) -> Callable:
        target.rtol = rtol
        target.atol = atol
        target.same_message = same_message
        target.is_recorded_case = True
        return target

    return mark if function is None else mark(function)


def collect(module) -> dict[str, Callable]:
    """The cases of a case module, ``{name: function}``, in definition order."""
    return {name: value for name, value in vars(module).items()
            if callable(value) and getattr(value, "is_recorded_case", False)}


def encode(value):
    """A JSON-able form of a case's result: arrays keep their dtype and shape.

    Example:
        >>> encode((np.array([1, 2], np.int32), 0.5))
        [{'dtype': 'int32', 'shape': [2], 'array': [1, 2]}, 0.5]
    """
    if isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
        return {"dtype": array.dtype.name, "shape": list(array.shape), "array": array.tolist()}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    raise TypeError(f"a case must return arrays, numbers, strings or containers of them, got "
                    f"{type(value).__name__}")


def run(function: Callable, framework) -> dict:
    """``{'value': encode(result)}``, or ``{'error': {'type', 'message'}}`` if it raised."""
    try:
        return {"value": encode(function(framework))}
    except Exception as error:  # noqa: BLE001 - the exception is the recorded result
        return {"error": {"type": type(error).__name__, "message": str(error)}}
