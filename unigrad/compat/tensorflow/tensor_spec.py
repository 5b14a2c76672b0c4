"""``tf.TensorSpec``: the type of a tensor (shape with unknown dims, dtype, name), and the
check of ``tf.function`` calls against an ``input_signature`` of them.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> spec = tf.TensorSpec(shape=(2, None), dtype=tf.float32)
    >>> spec
    TensorSpec(shape=(2, None), dtype=tf.float32, name=None)
    >>> spec.is_compatible_with(tf.zeros((2, 5))), spec.is_compatible_with(tf.zeros((3, 5)))
    (True, False)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence

from unigrad.tensor import Tensor as _UgTensor

from ._dtypes import DType, as_dtype
from ._tensor import Variable, convert_to_tensor
from .tensor_shape import TensorShape

__all__ = ["TensorSpec", "check_signature"]


def _shape(shape) -> TensorShape:
    """``shape`` (None, an int, a sequence of ints and Nones, a TensorShape) as a
    TensorShape, or TensorFlow's ``TypeError``."""
    if isinstance(shape, TensorShape):
        return shape
    try:
        return TensorShape(shape)
    except (TypeError, ValueError):
        raise TypeError(f"Failed to convert '{shape!r}' to a shape: a shape should either be a "
                        f"single dimension (e.g. 10), or an iterable of dimensions (e.g. "
                        f"[1, 10, None]).") from None


class TensorSpec:
    """The type of a tensor: ``TensorSpec(shape, dtype=tf.float32, name=None)``; ``None`` in
    ``shape`` is a dimension of any size, ``shape=None`` a tensor of any rank.

    Raises:
        TypeError: For a ``shape`` or ``dtype`` that is none.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> spec = tf.TensorSpec.from_tensor(tf.constant([1, 2]), name="ids")
        >>> spec, spec.shape, spec.dtype
        (TensorSpec(shape=(2,), dtype=tf.int32, name='ids'), TensorShape([2]), tf.int32)
        >>> spec == tf.TensorSpec([2], tf.int32, name="ids")
        True
    """

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=None, name: str | None = None) -> None:
        self._shape = _shape(shape)
        self._dtype = as_dtype("float32" if dtype is None else dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name: str | None = None) -> TensorSpec:
        """The spec of ``tensor``'s shape and dtype (``name`` defaults to none)."""
        tensor = convert_to_tensor(tensor)
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec: TensorSpec, name: str | None = None) -> TensorSpec:
        """A copy of ``spec``, with ``name`` if given."""
        return cls(spec.shape, spec.dtype, spec.name if name is None else name)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> DType:
        return self._dtype

    @property
    def name(self) -> str | None:
        return self._name

    def __repr__(self) -> str:
        shape = "<unknown>" if self._shape.rank is None else str(tuple(self._shape.as_list()))
        return f"TensorSpec(shape={shape}, dtype={self._dtype!r}, name={self._name!r})"

    def _key(self) -> tuple:
        dims = None if self._shape.rank is None else tuple(self._shape.as_list())
        return (dims, self._dtype, self._name)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def is_compatible_with(self, spec_or_tensor) -> bool:
        """Whether a tensor (or the tensors of a spec) fits this spec: same dtype, and a shape
        that agrees where both are known. Variables, NumPy arrays and Python values are not
        tensors (``False``), as in TensorFlow.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> tf.TensorSpec([None]).is_compatible_with(tf.TensorSpec([3]))
            True
        """
        if isinstance(spec_or_tensor, TensorSpec):
            other_shape, other_dtype = spec_or_tensor.shape, spec_or_tensor.dtype
        elif isinstance(spec_or_tensor, _UgTensor) and not isinstance(spec_or_tensor, Variable):
            other_shape, other_dtype = TensorShape(tuple(spec_or_tensor.shape)), \
                spec_or_tensor.dtype
        else:
            return False
        return other_dtype == self._dtype and self._shape.is_compatible_with(other_shape)


def _parameter_names(python_function: Callable | None, count: int) -> list:
    try:
        names = list(inspect.signature(python_function).parameters)
    except (TypeError, ValueError):
        names = []
    return (names + [f"arg{i}" for i in range(len(names), count)])[:max(count, len(names))]


def _binding_error(reason: str, args: tuple, kwargs: dict, signature: Sequence,
                   python_function: Callable | None) -> TypeError:
    names = _parameter_names(python_function, len(signature))
    described = ", ".join(f"{name}: {spec!r}" for name, spec in zip(names, signature))
    return TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: "
                     f"{args!r} and kwargs: {kwargs!r} for signature: ({described}).")


def _bound_values(signature: Sequence, args: tuple, kwargs: dict,
                  python_function: Callable | None) -> list:
    """The call's values in the order of ``signature`` (keyword arguments by parameter
    name), or TensorFlow's binding ``TypeError``."""
    if len(args) > len(signature):
        raise _binding_error("too many positional arguments", args, kwargs, signature,
                             python_function)
    names = _parameter_names(python_function, len(signature))[:len(signature)]
    values = list(args)
    for name in names[len(args):]:
        if name not in kwargs:
            raise _binding_error(f"missing a required argument: '{name}'", args, kwargs,
                                 signature, python_function)
        values.append(kwargs[name])
    extra = sorted(set(kwargs) - set(names[len(args):]))
    if extra:
        raise _binding_error(f"got an unexpected keyword argument '{extra[0]}'", args, kwargs,
                             signature, python_function)
    return values


def _converted(spec, value, fail: Callable):
    """``value`` matched to ``spec`` (a TensorSpec, or a list/tuple of them)."""
    if isinstance(spec, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(spec):
            raise fail(f"Can not cast {value!r} to {spec!r}")
        return type(value)(_converted(s, v, fail) for s, v in zip(spec, value))
    tensor = value if isinstance(value, _UgTensor) else \
        convert_to_tensor(value, dtype_hint=spec.dtype)
    if not spec.is_compatible_with(tensor):
        raise fail(f"Can not cast {TensorSpec.from_tensor(tensor)!r} to {spec!r}")
    return tensor


def check_signature(signature: Sequence | None, args: tuple,
                    python_function: Callable | None = None, kwargs: dict | None = None) -> tuple:
    """The arguments of a ``tf.function`` call (``args`` and ``kwargs``) checked against its
    ``input_signature`` and returned as a tuple of positional arguments: each converted to a
    tensor of its spec's dtype (NumPy and Python values are accepted) and matched to the
    spec's shape; nested lists/tuples of specs match nested values.

    Raises:
        TypeError: TensorFlow's "Binding inputs to tf.function failed" for too many or
            missing arguments, or one whose dtype or shape the spec rejects.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow.tensor_spec import check_signature
        >>> check_signature([tf.TensorSpec([None])], ([1.0, 2.0],))
        (<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>,)
    """
    kwargs = dict(kwargs or {})
    if signature is None:
        return tuple(args)
    args = tuple(args)

    def fail(reason: str) -> TypeError:
        return _binding_error(reason, args, kwargs, signature, python_function)

    values = _bound_values(signature, args, kwargs, python_function)
    return tuple(_converted(spec, value, fail) for spec, value in zip(signature, values))
