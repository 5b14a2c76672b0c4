"""Interpreter values that stand where a backend array would be.

A batched value (vmap) or a graph tracer (jit) sits inside ``Tensor._data`` and
reaches vjp rules as a bare "array". :class:`AbstractArray` gives such values
the NumPy surface those rules use (operators, ``np.exp(x)``, ``x.reshape``,
``x.sum``, ``x.T``, ``np.where``...), each call binding the primitive of the
same meaning: the primitive whose ``ufunc`` field names the NumPy ufunc, or
the unigrad op of the NumPy function. Subclasses give ``shape`` and ``dtype``
and say what reading them as Python values means (:meth:`_concrete_error`).

Example:
    >>> from unigrad.interpreters.array import ufunc_primitive
    >>> ufunc_primitive("tanh").name, ufunc_primitive("true_divide").name
    ('tanh', 'div')
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor, _make_tensor

_BY_UFUNC: dict = {}


def ufunc_primitive(name: str):
    """The primitive declared with ``ufunc=name`` (None if there is none)."""
    if not _BY_UFUNC:
        from ..ops._primitive import PRIMITIVES
        for prim in PRIMITIVES.values():
            if prim.ufunc is not None:
                _BY_UFUNC[prim.ufunc] = prim
        _BY_UFUNC["divide"] = _BY_UFUNC["true_divide"]
    return _BY_UFUNC.get(name)


def _bind_ufunc(name: str, *operands):
    from ..ops._primitive import bind
    return bind(ufunc_primitive(name), *operands)


class AbstractArray:
    """The NumPy-like surface of an interpreter's array stand-in."""

    __slots__ = ()
    __array_priority__ = 1000
    __unigrad_abstract__ = True

    # ---------------------------------------------------------------- provided by subclasses
    shape: tuple
    dtype: np.dtype

    def _concrete_error(self, what: str) -> Exception:
        """The error for reading this value as a concrete Python or NumPy value."""
        raise NotImplementedError

    def _check_alive(self) -> None:
        """Raise when the value is used after its interpreter ended."""

    # ---------------------------------------------------------------- abstract value
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    # ---------------------------------------------------------------- concretization
    def __bool__(self):
        raise self._concrete_error("Python bool() (an `if`, `while`, `and`/`or` or `assert`)")

    def __float__(self):
        raise self._concrete_error("float()")

    def __int__(self):
        raise self._concrete_error("int()")

    def __index__(self):
        raise self._concrete_error("Use as an index or int")

    def item(self):
        raise self._concrete_error(".item()")

    def tolist(self):
        raise self._concrete_error(".tolist()")

    def __array__(self, dtype=None, copy=None):
        raise self._concrete_error("Conversion to a NumPy array")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    # ---------------------------------------------------------------- array methods
    def _tensor(self) -> Tensor:
        self._check_alive()
        return _make_tensor(self)

    def copy(self):
        return self  # interpreter values are immutable: a copy is the value itself

    def detached(self):
        """This value outside every tape (what ``Tensor.detach`` keeps)."""
        return self

    def astype(self, dtype, copy=True):
        from ..ops.elementwise import cast
        return cast(self, np.dtype(dtype))

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        return self._tensor().reshape(tuple(shape))._data

    def ravel(self):
        return self.reshape(-1)

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
        if not axes:
            axes = tuple(reversed(range(self.ndim)))
        return self._tensor().permute(*axes)._data

    @property
    def T(self):
        return self.transpose()

    def sum(self, axis=None, keepdims=False, dtype=None):
        result = self._tensor().sum(dim=axis, keepdim=keepdims)._data
        return result if dtype is None else result.astype(dtype)

    def all(self, axis=None, keepdims=False):
        tensor = self._tensor()
        return (tensor.all(dim=axis, keepdim=keepdims) if axis is not None else tensor.all())._data

    def any(self, axis=None, keepdims=False):
        tensor = self._tensor()
        return (tensor.any(dim=axis, keepdim=keepdims) if axis is not None else tensor.any())._data

    def mean(self, axis=None, keepdims=False):
        return self._tensor().mean(dim=axis, keepdim=keepdims)._data

    def __getitem__(self, index):
        return self._tensor()[_wrap_index(index)]._data

    def __setitem__(self, index, value):
        raise TypeError(f"{type(self).__name__} values cannot be assigned to in place; use "
                        f"Tensor operations")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        prim = ufunc_primitive(ufunc.__name__)
        if method != "__call__" or prim is None or kwargs:
            raise TypeError(f"numpy.{ufunc.__name__} cannot be applied to a "
                            f"{type(self).__name__}: use the unigrad op instead")
        self._check_alive()
        from ..ops._primitive import bind
        return bind(prim, *inputs)

    def __array_function__(self, func, types, args, kwargs):
        function = _numpy_functions().get(func.__name__)
        if function is None:
            raise TypeError(f"numpy.{func.__name__} cannot be applied to a "
                            f"{type(self).__name__}: use the unigrad op instead")
        self._check_alive()
        result = function(*(_wrap(x) for x in args), **{k: _wrap(v) for k, v in kwargs.items()})
        return result._data if isinstance(result, Tensor) else result


def _wrap(value):
    if isinstance(value, AbstractArray):
        return _make_tensor(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, AbstractArray) for v in value):
        return type(value)(_wrap(v) for v in value)
    return value


def _wrap_index(index):
    if isinstance(index, tuple):
        return tuple(_wrap(i) for i in index)
    return _wrap(index)


def _operator(ufunc: str, reflected: bool = False):
    if reflected:
        def method(self, other):
            return _bind_ufunc(ufunc, other, self)
    else:
        def method(self, other):
            return _bind_ufunc(ufunc, self, other)
    return method


for _dunder, _ufunc in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                        ("truediv", "true_divide"), ("pow", "power"), ("matmul", "matmul"),
                        ("mod", "remainder"), ("floordiv", "floor_divide")):
    setattr(AbstractArray, f"__{_dunder}__", _operator(_ufunc))
    setattr(AbstractArray, f"__r{_dunder}__", _operator(_ufunc, reflected=True))
for _dunder, _ufunc in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                        ("ge", "greater_equal"), ("eq", "equal"), ("ne", "not_equal"),
                        ("and", "logical_and"), ("or", "logical_or"), ("xor", "logical_xor")):
    setattr(AbstractArray, f"__{_dunder}__", _operator(_ufunc))
AbstractArray.__hash__ = object.__hash__
AbstractArray.__neg__ = lambda self: _bind_ufunc("negative", self)
AbstractArray.__abs__ = lambda self: _bind_ufunc("absolute", self)
AbstractArray.__invert__ = lambda self: _bind_ufunc("logical_not", self)

_FUNCTIONS: dict = {}


def _numpy_functions() -> dict:
    """NumPy functions vjp rules call on arrays, as the unigrad ops of the same meaning."""
    if not _FUNCTIONS:
        import unigrad as ug
        _FUNCTIONS.update({
            "where": ug.where, "broadcast_to": ug.broadcast_to,
            "sum": lambda a, axis=None, keepdims=False, dtype=None: ug.sum(a, dim=axis,
                                                                             keepdim=keepdims),
            "reshape": lambda a, shape: ug.reshape(a, shape),
            "transpose": lambda a, axes=None: a.permute(*(axes or reversed(range(a.ndim)))),
            "zeros_like": lambda a, dtype=None: ug.zeros_like(a, dtype=dtype),
            "ones_like": lambda a, dtype=None: ug.ones_like(a, dtype=dtype),
            "clip": lambda a, a_min=None, a_max=None: ug.clip(a, a_min, a_max),
            "concatenate": lambda arrays, axis=0: ug.cat(list(arrays), dim=axis),
            "stack": lambda arrays, axis=0: ug.stack(list(arrays), dim=axis),
            "moveaxis": lambda a, source, destination: ug.movedim(a, source, destination)})
    return _FUNCTIONS
