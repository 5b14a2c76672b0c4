"""TensorFlow's ``tf.Tensor`` and ``tf.Variable`` as unigrad Tensor subclasses.

``Tensor`` is its own ``_result_class``: every op on it returns a ``Tensor``,
so results print as ``<tf.Tensor: shape=(), dtype=float32, numpy=2.0>``. A
trainable floating-point or complex ``Variable`` is a leaf that requires grad, which is
what :class:`unigrad.GradientTape` watches automatically (its
``watch_accessed_variables``), and what ``tf.gradients`` differentiates.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.constant([1.0, 2.0])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    >>> v = tf.Variable(3.0, name="v")
    >>> v
    <tf.Variable 'v:0' shape=() dtype=float32, numpy=3.0>
    >>> v * 2
    <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

import unigrad as ug
from unigrad import backend
from unigrad.compat._numpy_slicing import getitem as numpy_getitem
from unigrad.tensor import Tensor as _UgTensor
from unigrad.transforms.tree import tree_flatten, tree_unflatten

from ._dtypes import DType, as_dtype
from .tensor_shape import TensorShape

__all__ = ["Tensor", "EagerTensor", "Variable", "ResourceVariable", "constant",
           "convert_to_tensor", "as_tf", "as_tf_tree"]


def _numpy_text(array: np.ndarray, is_repr: bool) -> str:
    """TensorFlow's rendering of a tensor's value: a scalar's number, an array's repr or str."""
    if array.ndim == 0:
        return str(array[()])
    text = repr(array) if is_repr else str(array)
    return "\n" + text if "\n" in text else text


class Tensor(_UgTensor):
    """An immutable TensorFlow tensor (``tf.Tensor``) over unigrad's engine.

    Make one with :func:`constant` or :func:`convert_to_tensor`; ops on it
    return ``Tensor``. ``numpy()`` gives a NumPy copy whether or not the value
    is being differentiated.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> t = tf.constant([[1, 2], [3, 4]])
        >>> t.dtype, t.shape
        (tf.int32, TensorShape([2, 2]))
        >>> print(t + 1)
        tf.Tensor(
        [[2 3]
         [4 5]], shape=(2, 2), dtype=int32)
    """

    __slots__ = ()

    def numpy(self):  # type: ignore[override]
        """The value as a NumPy array (a copy); a NumPy scalar for a 0-d tensor, as in TF."""
        array = np.array(backend.to_numpy(self._data))
        return array[()] if array.ndim == 0 else array

    @property
    def dtype(self) -> DType:
        """The element type as a TensorFlow ``tf.DType`` (``tf.float32``)."""
        return as_dtype(self._data.dtype)

    @property
    def shape(self) -> TensorShape:
        """The shape as a ``tf.TensorShape`` (a tuple of ints with TensorFlow's methods)."""
        return TensorShape(self._data.shape)

    def get_shape(self) -> TensorShape:
        """The static shape (TensorFlow's ``get_shape``)."""
        return self.shape

    def __array_function__(self, func, types, args, kwargs):
        """NumPy functions see TensorFlow tensors as arrays (``np.mean(t, axis=0)`` is a NumPy
        array, as with TensorFlow's tensors)."""
        leaves, structure = tree_flatten((args, kwargs))
        leaves = [leaf.numpy() if isinstance(leaf, _UgTensor) else leaf for leaf in leaves]
        args, kwargs = tree_unflatten(structure, leaves)
        return func(*args, **kwargs)

    def __getitem__(self, key):
        """Indexing as in TensorFlow: slices may step backwards (``t[::-1]``)."""
        return numpy_getitem(self, key)

    def __repr__(self) -> str:
        return (f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._array(), True)}>")

    def _array(self) -> np.ndarray:
        return np.asarray(backend.to_numpy(self._data))

    def __str__(self) -> str:
        return (f"tf.Tensor({_numpy_text(self._array(), False)}, shape={self.shape}, "
                f"dtype={self.dtype.name})")

    def __setitem__(self, index, value) -> None:
        raise TypeError(f"'{type(self).__name__}' object does not support item assignment")


class EagerTensor(Tensor):
    """The concrete class of eager tensors, as in TensorFlow (``type(t).__name__`` is
    ``'EagerTensor'``; ``isinstance(t, tf.Tensor)`` holds)."""

    __slots__ = ()


Tensor._result_class = EagerTensor


def as_tf(value):
    """Turn a fresh plain unigrad result into a TensorFlow Tensor in place (no copy)."""
    if type(value) is _UgTensor:
        value.__class__ = EagerTensor
    return value


def as_tf_tree(tree, keep: tuple = ()):
    """:func:`as_tf` on every Tensor leaf of ``tree`` except those in ``keep``."""
    leaves, spec = tree_flatten(tree)
    kept = {id(item) for item in keep}
    return tree_unflatten(spec, [leaf if id(leaf) in kept else as_tf(leaf) for leaf in leaves])


# ----------------------------------------------------------------------------- conversions

def _array_from(value, dtype) -> np.ndarray:
    """``value`` as a NumPy array with TensorFlow's dtype rules: Python floats are float32,
    Python ints int32, NumPy data keeps its dtype; ``dtype`` casts (never a lossy float->int)."""
    if isinstance(value, _UgTensor):
        array = np.array(backend.to_numpy(value._data))
    elif isinstance(value, (np.ndarray, np.generic)):
        array = np.array(value)
    else:
        try:
            array = np.array(value)
        except ValueError as error:
            raise ValueError(f"Can't convert non-rectangular Python sequence to Tensor: "
                             f"{error}") from None
        if array.dtype == object or array.dtype.kind in "USV":
            raise TypeError(f"Failed to convert elements of {value!r} to Tensor. Consider "
                            "casting elements to a supported type.")
        if array.dtype.kind == "f" and dtype is None:
            array = array.astype(np.float32)
        elif array.dtype.kind in "iu" and dtype is None:
            if array.size and (array.min() < np.iinfo(np.int32).min
                               or array.max() > np.iinfo(np.int32).max):
                raise ValueError(f"Can't convert Python int {value!r} to int32: out of range")
            array = array.astype(np.int32)
    if dtype is not None:
        target = backend.to_numpy_dtype(_dtype(dtype, "dtype"))
        if target.kind in "iub" and array.dtype.kind == "f" and \
                not np.all(np.equal(np.mod(array, 1), 0)):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype "
                            f"{backend.from_numpy_dtype(target).name}")
        array = array.astype(target)
    if array.dtype not in backend._BY_NUMPY:
        raise TypeError(f"Cannot convert data of dtype {array.dtype} to a Tensor")
    return array


def _dtype(dtype, name: str) -> DType:
    """A dtype argument (any spelling ``tf.as_dtype`` takes) as a TensorFlow DType; ``name``
    is the argument's name (TensorFlow's message names ``type_value`` whatever it is)."""
    del name
    return as_dtype(dtype)


def _make(array: np.ndarray) -> Tensor:
    t = EagerTensor(array)
    return t


def constant(value, dtype=None, shape=None, name: str = "Const") -> Tensor:
    """A constant tensor from a value (``tf.constant``).

    Python floats become float32, Python ints int32; ``shape`` reshapes a
    value with that many elements or broadcasts a single one.

    Raises:
        TypeError: For a ``shape`` the value can't fill, or a lossy ``dtype``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.constant(0.0, shape=[2, 2])
        <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
        array([[0., 0.],
               [0., 0.]], dtype=float32)>
        >>> tf.constant([1, 2, 3, 4], shape=(2, 2)).numpy().tolist()
        [[1, 2], [3, 4]]
    """
    del name
    array = _array_from(value, dtype)
    if shape is not None:
        try:
            target = tuple(int(n) for n in (shape if isinstance(shape, (list, tuple))
                                            else (shape,)))
        except (TypeError, ValueError):
            raise TypeError(f"shape must be a list or tuple of ints, got {shape!r}") from None
        if array.size == 1:
            array = np.broadcast_to(array.reshape(()), target).copy()
        elif array.size == int(np.prod(target)):
            array = array.reshape(target)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tried to "
                            f"convert a value of {array.size} elements to a tensor of shape "
                            f"{target} ({int(np.prod(target))} elements).")
    return _make(array)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name: str | None = None):
    """``value`` as a tensor (``tf.convert_to_tensor``): tensors pass through unchanged.

    A plain unigrad Tensor becomes a differentiable TensorFlow alias of it.

    Raises:
        ValueError: When a tensor's dtype differs from ``dtype``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.convert_to_tensor([2.0, 2.0, 3.0])
        <tf.Tensor: shape=(3,), dtype=float32, numpy=array([2., 2., 3.], dtype=float32)>
    """
    del name
    if isinstance(value, _UgTensor):
        if dtype is not None and _dtype(dtype, "dtype") != value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dtype(dtype, 'dtype').name} "
                             f"for Tensor with dtype {value.dtype.name}: {value!r}")
        if isinstance(value, Tensor):
            return value
        return as_tf(ug.clone(value))
    if dtype is None and dtype_hint is not None:
        array = _array_from(value, None)
        hint = backend.to_numpy_dtype(_dtype(dtype_hint, "dtype_hint"))
        if np.can_cast(array.dtype, hint, casting="same_kind") or (
                array.dtype.kind in "iu" and hint.kind == "f"):
            array = array.astype(hint)
        return _make(array)
    return constant(value, dtype=dtype)


def to_tensor(value, like: _UgTensor | None = None) -> _UgTensor:
    """An op argument as a tensor: tensors as they are; Python values converted with the dtype
    of ``like`` (TensorFlow converts a Python scalar to the other operand's dtype)."""
    if isinstance(value, _UgTensor):
        return value
    if like is not None and isinstance(value, (int, float, bool, np.number, list, tuple)):
        return constant(value, dtype=like.dtype)
    return constant(value)


def operand(value, name: str) -> _UgTensor:
    """An op argument as a tensor, or a ``TypeError`` naming the argument ``name``."""
    if isinstance(value, _UgTensor):
        return value
    try:
        return constant(value)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be a Tensor or a value convertible to one: {error}") \
            from None


# ----------------------------------------------------------------------------- Variable

_VARIABLE_SERIALS = itertools.count()


class Variable(Tensor):
    """A mutable, named tensor (``tf.Variable``).

    ``Variable(initial_value, trainable=True, name=None, dtype=None, shape=None)``.
    A trainable floating-point (or complex) variable requires grad, so ``GradientTape``
    watches it and ``tf.gradients`` differentiates it; ``assign``,
    ``assign_add`` and ``assign_sub`` update it in place (also inside
    ``tf.function``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> v = tf.Variable([1.0, 2.0], name="w")
        >>> v.assign_add([1.0, 1.0])
        <tf.Variable 'w:0' shape=(2,) dtype=float32, numpy=array([2., 3.], dtype=float32)>
        >>> v.name, v.trainable
        ('w:0', True)
    """

    __slots__ = ("_tf_name", "_trainable", "_initial", "_serial", "_graph")

    def __new__(cls, *args, **kwargs):
        """``tf.Variable(...)`` makes a ``ResourceVariable``, as in TensorFlow 2."""
        return super().__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable: bool = True, validate_shape: bool = True,
                 caching_device=None, name: str | None = None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None, experimental_enable_variable_lifting=None):
        if initial_value is None:
            raise ValueError("The initial_value must be specified.")
        if callable(initial_value) and not isinstance(initial_value, _UgTensor):
            initial_value = initial_value()
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a str or None, got {type(name).__name__}")
        if not isinstance(trainable, (bool, np.bool_)) and trainable is not None:
            raise TypeError(f"trainable must be a bool, got {type(trainable).__name__}")
        array = _array_from(initial_value, dtype)
        if shape is not None and validate_shape and tuple(shape) != array.shape:
            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape "
                             f"({array.shape}) is not compatible with the explicitly supplied "
                             f"`shape` argument ({tuple(shape)}).")
        super().__init__(array)
        from . import _graph  # here: these modules import this one
        from .module import current_scope

        self._graph = _graph.building()  # the TF1 graph it was made in (None: eager)
        base = current_scope() + (name or "Variable")
        self._tf_name = (base if self._graph is None else self._graph.unique_name(base)) + ":0"
        if self._graph is not None:
            self._graph.add_to_collection("variables", self)
        self._trainable = True if trainable is None else bool(trainable)
        self._initial = array.copy()
        self._serial = next(_VARIABLE_SERIALS)  # creation order (tape.watched_variables)
        if self._trainable and array.dtype.kind in "fc":
            self.requires_grad_(True)

    @property
    def name(self) -> str:
        """The variable's name with TensorFlow's ``:0`` output suffix."""
        return self._tf_name

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def initial_value(self) -> Tensor:
        return _make(self._initial.copy())

    def __repr__(self) -> str:
        text = f"<tf.Variable '{self._tf_name}' shape={self.shape} dtype={self.dtype.name}"
        if self._graph is not None:  # a graph's variable shows no value, as in TensorFlow 1
            return text + ">"
        return f"{text}, numpy={_numpy_text(self._array(), True)}>"

    __str__ = __repr__

    def read_value(self) -> Tensor:
        """The current value as a Tensor (differentiable with respect to the variable)."""
        return as_tf(ug.clone(self)) if self._requires_grad else _make(self._array())

    value = read_value

    def _new_value(self, value, op: str) -> _UgTensor:
        if isinstance(value, _UgTensor):
            if value.dtype != self.dtype:
                raise TypeError(f"{op}: cannot assign a value of dtype {value.dtype.name} to "
                                f"variable '{self._tf_name}' of dtype {self.dtype.name}")
            new = value
        else:
            new = _make(_array_from(value, self.dtype))
        if tuple(new.shape) != tuple(self.shape):
            raise ValueError(f"Cannot assign value to variable ' {self._tf_name}': Shape "
                             f"mismatch.The variable shape {self.shape}, and the assigned value "
                             f"shape {tuple(new.shape)} are incompatible.")
        return new

    def _write(self, value: _UgTensor, read_value: bool):
        with ug.no_grad():
            _UgTensor.copy_(self, value)
        return self if read_value else None

    def assign(self, value, use_locking: bool | None = None, name: str | None = None,
               read_value: bool = True):
        """Set the variable to ``value`` (same shape); returns the variable.

        Raises:
            ValueError: When ``value`` has another shape.
        """
        graph_op = _graph_assignment(self, "assign", value)
        if graph_op is not None:
            return graph_op
        return self._write(self._new_value(value, "assign"), read_value)

    def assign_add(self, delta, use_locking: bool | None = None, name: str | None = None,
                   read_value: bool = True):
        """Add ``delta`` to the variable in place; returns the variable."""
        graph_op = _graph_assignment(self, "assign_add", delta)
        if graph_op is not None:
            return graph_op
        delta = self._new_value(delta, "assign_add")
        with ug.no_grad():
            return self._write(self.detach() + delta, read_value)

    def assign_sub(self, delta, use_locking: bool | None = None, name: str | None = None,
                   read_value: bool = True):
        """Subtract ``delta`` from the variable in place; returns the variable."""
        graph_op = _graph_assignment(self, "assign_sub", delta)
        if graph_op is not None:
            return graph_op
        delta = self._new_value(delta, "assign_sub")
        with ug.no_grad():
            return self._write(self.detach() - delta, read_value)

    def initialize(self) -> None:
        """Reset the variable to its initial value (what TF1's initializer op does)."""
        self._write(_make(self._initial.copy()), read_value=False)


def _graph_assignment(variable: Variable, kind: str, value):
    """While a TF1 graph is being built: the graph tensor of the assignment (run by a
    Session); otherwise None (assign now)."""
    from . import _graph
    if _graph.building() is None or _graph.probing():
        return None
    return _graph.assignment(variable, kind, value)


def _check_callable(fn: Callable, name: str) -> None:
    if not callable(fn):
        raise TypeError(f"{name} must be callable, got {type(fn).__name__}")


class ResourceVariable(Variable):
    """The concrete class of ``tf.Variable`` objects, as in TensorFlow 2 (``type(v).__name__``
    is ``'ResourceVariable'``; ``isinstance(v, tf.Variable)`` holds).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> v = tf.Variable(1.0)
        >>> type(v).__name__, isinstance(v, tf.Variable), type(v * 2).__name__
        ('ResourceVariable', True, 'EagerTensor')
    """

    __slots__ = ()
