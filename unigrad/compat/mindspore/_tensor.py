"""MindSpore's ``Tensor``, ``Parameter`` and ``ParameterTuple`` over unigrad tensors.

``Tensor`` is a :class:`unigrad.Tensor` subclass with no state of its own: ops
on it return ``Tensor`` (its ``_result_class``), it prints the way MindSpore
prints (``str`` is NumPy's text of the value, ``repr`` is
``Tensor(shape=[...], dtype=Float32, value=...)``) and it has MindSpore's
methods (``asnumpy``, ``astype``, numpy-style ``transpose(*axes)``,
``mean(axis, keep_dims)``, ``size`` as a property...). Values the engine
creates are turned into these classes in place by :func:`to_ms` (the object
keeps its identity, graph and storage; only its class changes).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> x = ms.Tensor([[1, 2, 3]], ms.float32)
    >>> x
    Tensor(shape=[1, 3], dtype=Float32, value=
    [[1.00000000e+000, 2.00000000e+000, 3.00000000e+000]])
    >>> print(x * 2)
    [[2. 4. 6.]]
    >>> ms.Tensor(2.0), ms.Tensor(3), ms.Tensor(True)
    (Tensor(shape=[], dtype=Float32, value= 2), Tensor(shape=[], dtype=Int64, value= 3), \
Tensor(shape=[], dtype=Bool, value= True))
"""

from __future__ import annotations

import numpy as np

from ... import backend
from ... import nn as _ugnn
from ...ops import creation as _creation
from ...ops import elementwise as _ew
from ...ops import reduce as _reduce
from ...ops import shape as _shape
from ...ops.device import clone as _clone
from ...tensor import Tensor as _UgTensor
from ...tensor import bump_version
from .._numpy_slicing import getitem as numpy_getitem
from ._printing import format_value
from .dtype import MsType, to_ms_dtype

__all__ = ["Tensor", "Parameter", "ParameterTuple", "to_ms", "format_repr"]

_UgParameter = _ugnn.Parameter


# ------------------------------------------------------------------------------ text forms

def format_repr(tensor: _UgTensor) -> str:
    """MindSpore's ``repr`` of a tensor: ``Tensor(shape=[2], dtype=Float32, value= [...])``;
    arrays of two or more dimensions start their value on a new line."""
    array = backend.to_numpy(tensor._data)
    shape = "[" + ", ".join(str(d) for d in array.shape) + "]"
    dtype = to_ms_dtype(array.dtype)
    separator = "\n" if array.ndim > 1 else " "
    return f"Tensor(shape={shape}, dtype={dtype}, value={separator}{format_value(array)})"


# ------------------------------------------------------------------------------ conversion

def to_ms(value):
    """``value`` with every plain unigrad Tensor (Parameter) in it re-classed, in place, as a
    MindSpore Tensor (Parameter); tuples stay tuples (named ones keep their type), lists
    lists, dicts dicts. Other values pass through unchanged.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.compat.mindspore._tensor import to_ms
        >>> t = ug.tensor([1.0, 2.0])
        >>> to_ms((t, [t], 3)) [0] is t, type(t).__name__
        (True, 'Tensor')
        >>> t
        Tensor(shape=[2], dtype=Float32, value= [1.00000000e+000, 2.00000000e+000])
    """
    cls = value.__class__
    if cls is _UgTensor:
        value.__class__ = Tensor
        return value
    if cls is _UgParameter:
        value.__class__ = Parameter
        return value
    if cls is tuple:
        return tuple(to_ms(item) for item in value)
    if cls is list:
        return [to_ms(item) for item in value]
    if cls is dict:
        return {key: to_ms(item) for key, item in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return cls._make(to_ms(item) for item in value)
    return value


def _data_of(value, owner: str, name: str) -> np.ndarray:
    if isinstance(value, _UgTensor):
        return value._data
    if isinstance(value, (np.ndarray, np.generic, int, float, bool, list, tuple)):
        return backend.to_device(np.asarray(value), backend.Device("cpu"))
    raise TypeError(f"For '{owner}', the argument '{name}' must be a Tensor, a number or an "
                    f"array, but got {type(value).__name__}")


def _axes(axis):
    """MindSpore's ``axis=()`` (all axes) as unigrad's ``None``."""
    if axis is None or axis == ():
        return None
    if isinstance(axis, list):
        return tuple(axis)
    return axis


# ------------------------------------------------------------------------------ Tensor

class Tensor(_UgTensor):
    """MindSpore's Tensor: ``Tensor(input_data=None, dtype=None, shape=None, init=None)``.

    ``input_data`` is a Tensor, a NumPy array, a Python number or a nested
    list. Without ``dtype``, Python floats become Float32, ints Int64, bools
    Bool and NumPy arrays keep their dtype. Without ``input_data``, ``shape``
    and ``dtype`` make a tensor filled by ``init`` (an initializer name such
    as ``'zeros'``, ``'ones'``, ``'normal'``, a number, or a unigrad
    initializer); with no ``init`` it is filled with zeros.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.mindspore as ms
        >>> ms.Tensor(np.array([1.0, 2.0])).dtype, ms.Tensor([1, 2]).dtype
        (mindspore.float64, mindspore.int64)
        >>> ms.Tensor(shape=(2, 2), dtype=ms.float32, init="ones").asnumpy()
        array([[1., 1.],
               [1., 1.]], dtype=float32)
        >>> t = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> t.shape, t.size, t.transpose().asnumpy().tolist()
        ((2, 2), 4, [[1.0, 3.0], [2.0, 4.0]])
        >>> print(t.mean(axis=1, keep_dims=True))
        [[1.5]
         [3.5]]
    """

    __slots__ = ()

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, internal: bool = False,
                 const_arg: bool = False, device=None):
        if input_data is not None and isinstance(input_data, (str, bytes, dict, set)):
            raise TypeError(f"For 'Tensor', the type of 'input_data' must be a Tensor, a "
                            f"NumPy array, a number, a list or a tuple, but got "
                            f"{type(input_data).__name__}")
        if dtype is not None:
            dtype = to_ms_dtype(dtype)
        if input_data is not None:
            if shape is not None or init is not None:
                raise ValueError("For 'Tensor', 'shape' and 'init' must be None when "
                                 "'input_data' is given")
            super().__init__(input_data, dtype=dtype)
            return
        if shape is None and init is None:
            super().__init__(None, dtype=dtype)  # an empty tensor
            return
        if shape is None or dtype is None:
            raise ValueError("For 'Tensor', 'shape' and 'dtype' must both be given when "
                             "'input_data' is None")
        if isinstance(shape, int) and not isinstance(shape, bool):
            shape = (shape,)
        if not isinstance(shape, (tuple, list)) or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
            raise TypeError(f"For 'Tensor', 'shape' must be a tuple of non-negative ints, but "
                            f"got {shape!r}")
        filled = _ugnn.init.initializer(0.0 if init is None else init, tuple(shape), dtype)
        super().__init__(None)
        self._data = filled._data

    # ---------------------------------------------------------------- text
    def __getitem__(self, key):
        """Indexing as in MindSpore: slices may step backwards (``t[::-1]``)."""
        return numpy_getitem(self, key)

    def __repr__(self) -> str:
        return format_repr(self)

    def __str__(self) -> str:
        return str(backend.to_numpy(self._data))

    def __format__(self, spec: str) -> str:
        if spec and self._data.size == 1:
            return format(self.item(), spec)
        return format(str(self), spec)

    # ---------------------------------------------------------------- attributes
    @property
    def dtype(self) -> MsType:
        """The MindSpore dtype (``Float32``...)."""
        return to_ms_dtype(self._data.dtype)

    @property
    def shape(self) -> tuple:
        """The shape as a tuple of ints (whatever names the text forms use)."""
        return self._data.shape

    @property
    def size(self) -> int:  # type: ignore[override]
        """The number of elements (a property in MindSpore)."""
        return int(self._data.size)

    @property
    def itemsize(self) -> int:
        return int(self._data.dtype.itemsize)

    @property
    def nbytes(self) -> int:
        return int(self._data.nbytes)

    @property
    def strides(self) -> tuple:
        return tuple(self._data.strides)

    @property
    def has_init(self) -> bool:
        """Always False: tensors here are initialized when created."""
        return False

    def init_data(self) -> Tensor:
        """MindSpore initializes lazily; here the data exists already: returns self."""
        return self

    # ---------------------------------------------------------------------- hooks
    def register_hook(self, hook):
        """Call ``hook(grad)`` with the gradient flowing into this tensor during a gradient
        computation; a Tensor it returns replaces the gradient. Returns a handle whose
        ``remove()`` unregisters it. Register it on a value computed inside the function
        being differentiated.

        Example:
            >>> import unigrad.compat.mindspore as ms
            >>> def f(x):
            ...     y = x * 3
            ...     _ = y.register_hook(lambda grad: grad * 2)
            ...     return y.sum()
            >>> ms.grad(f)(ms.Tensor([1.0, 2.0]))
            Tensor(shape=[2], dtype=Float32, value= [6.00000000e+000, 6.00000000e+000])
        """
        if not callable(hook):
            raise TypeError(f"Expected a callable hook function, but got "
                            f"{type(hook).__name__}.")

        def call(grad):
            return to_ms(hook(to_ms(grad)))
        return _UgTensor.register_hook(self, call)

    # ---------------------------------------------------------------- conversions
    def asnumpy(self) -> np.ndarray:
        """The value as a NumPy array sharing memory with the tensor (on the CPU)."""
        return backend.to_numpy(self._data)

    def astype(self, dtype, copy: bool = True) -> Tensor:
        """The tensor cast to ``dtype`` (differentiable for float dtypes)."""
        return to_ms(_ew.cast(self, to_ms_dtype(dtype)))

    def copy(self) -> Tensor:
        """A copy with its own storage."""
        return to_ms(_clone(self))

    def assign_value(self, value) -> Tensor:
        """Replace the value in place (same shape; cast to this tensor's dtype)."""
        array = _data_of(value, "Tensor.assign_value", "value")
        if tuple(array.shape) != self._data.shape:
            raise ValueError(f"For 'Tensor.assign_value', the shape of 'value' {tuple(array.shape)}"
                             f" must equal the tensor's shape {self._data.shape}")
        self._data = backend.namespace_of(self._data).asarray(array).astype(self._data.dtype,
                                                                            copy=True)
        bump_version(self)
        return self

    set_data = assign_value

    # ---------------------------------------------------------------- MindSpore methods
    def transpose(self, *axes) -> Tensor:  # type: ignore[override]
        """Permute the axes (NumPy order): no axes reverses them."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
        return to_ms(_shape.permute(self, *axes))

    def mean(self, axis=None, keep_dims: bool = False) -> Tensor:  # type: ignore[override]
        """Mean over ``axis`` (an int, a tuple, or None/() for all)."""
        return to_ms(_reduce.mean(self, axis=_axes(axis), keepdims=keep_dims))

    def sum(self, axis=None, dtype=None, keepdims: bool = False,  # type: ignore[override]
            initial=None) -> Tensor:
        """Sum over ``axis``; ``initial`` is added to the result."""
        result = _reduce.sum(self, axis=_axes(axis), keepdims=keepdims,
                             dtype=None if dtype is None else to_ms_dtype(dtype))
        if initial is not None:
            result = result + initial
        return to_ms(result)

    def expand_dims(self, axis: int) -> Tensor:
        """A new axis of length 1 at ``axis``."""
        return to_ms(_shape.unsqueeze(self, axis))

    def squeeze(self, axis=None) -> Tensor:  # type: ignore[override]
        """Remove axes of length 1 (all of them, or those in ``axis``)."""
        if isinstance(axis, (tuple, list)):
            result = self
            for a in sorted((a % max(self.ndim, 1) for a in axis), reverse=True):
                result = _shape.squeeze(result, a)
            return to_ms(result)
        return to_ms(_shape.squeeze(self, axis))

    def fill(self, value) -> Tensor:
        """A tensor of this shape and dtype filled with ``value``."""
        return to_ms(_creation.full(self.shape, value, dtype=self.dtype))

    def ravel(self) -> Tensor:
        """The values as a 1-D tensor."""
        return to_ms(_shape.reshape(self, -1))

    def select_scatter(self, src, axis, index) -> Tensor:  # type: ignore[override]
        """:func:`mindspore.ops.select_scatter` of this tensor."""
        from .ops import select_scatter
        return select_scatter(self, src, axis, index)

    def slice_scatter(self, src, axis=0, start=None, end=None,  # type: ignore[override]
                      step=1) -> Tensor:
        """:func:`mindspore.ops.slice_scatter` of this tensor."""
        from .ops import slice_scatter
        return slice_scatter(self, src, axis, start, end, step)

    def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1) -> Tensor:  # type: ignore[override]
        """:func:`mindspore.ops.diagonal_scatter` of this tensor."""
        from .ops import diagonal_scatter
        return diagonal_scatter(self, src, offset, dim1, dim2)

    def svd(self, full_matrices: bool = False, compute_uv: bool = True):  # type: ignore[override]
        """:func:`mindspore.ops.svd` of this tensor: ``(s, u, v)`` (``s`` alone without uv)."""
        from .ops import svd
        return svd(self, full_matrices, compute_uv)

    # ---------------------------------------------------------------- copying / pickling
    def __deepcopy__(self, memo):
        return to_ms(_UgTensor.__deepcopy__(self, memo))

    def __reduce_ex__(self, protocol):
        return (_rebuild_tensor, (backend.to_numpy(self._data),))


Tensor._result_class = Tensor


# ------------------------------------------------------------------------------ Parameter

class Parameter(_UgParameter, Tensor):
    """MindSpore's ``Parameter(default_input, name=None, requires_grad=True, ...)``.

    A trainable Tensor with a ``name`` (a Cell names it after the attribute it
    is assigned to, prefixed by the parents' attribute names: ``fc.weight``).
    ``data`` is the Parameter itself, ``set_data`` replaces its value;
    results of ops on it are plain MindSpore Tensors.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.mindspore as ms
        >>> z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name='z')
        >>> z
        Parameter (name=z, shape=(1,), dtype=Float32, requires_grad=True)
        >>> z.set_data(ms.Tensor([2.0])).data.asnumpy()
        array([2.], dtype=float32)
        >>> z * 3
        Tensor(shape=[1], dtype=Float32, value= [6.00000000e+000])
    """

    __slots__ = ()

    def __init__(self, default_input=None, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True,
                 storage_format: str = "", device=None):
        if isinstance(default_input, (str, bytes, dict, set)):
            raise TypeError(f"For 'Parameter', 'default_input' must be a Tensor, a NumPy array, "
                            f"a number or a list, but got {type(default_input).__name__}")
        if not isinstance(requires_grad, (bool, np.bool_)):
            raise TypeError(f"For 'Parameter', 'requires_grad' must be bool, but got "
                            f"{type(requires_grad).__name__}")
        _UgParameter.__init__(self, default_input, name, requires_grad=bool(requires_grad))
        if not self._is_differentiable():
            self._extra_dict()["trainable"] = bool(requires_grad)

    def _is_differentiable(self) -> bool:
        return self._data.dtype.kind in "fc"

    @property
    def requires_grad(self) -> bool:
        """Whether the Parameter is trained (in ``trainable_params``). Integer and bool
        Parameters keep this flag as MindSpore does, but gradients never flow into them.

        Example:
            >>> import unigrad.compat.mindspore as ms
            >>> step = ms.Parameter(ms.Tensor(3, ms.int32), name="step")
            >>> step.requires_grad
            True
            >>> step.requires_grad = False
            >>> step
            Parameter (name=step, shape=(), dtype=Int32, requires_grad=False)
        """
        if self._extra is not None and "trainable" in self._extra:
            return self._extra["trainable"]
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError("The argument `requires_grad` must be bool type")
        if self._is_differentiable():
            self.requires_grad_(bool(value))
        else:
            self._extra_dict()["trainable"] = bool(value)

    def __repr__(self) -> str:
        name = self.name if self.name is not None else "Parameter"
        return (f"Parameter (name={name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__

    @property
    def data(self) -> Parameter:  # type: ignore[override]
        """The Parameter itself (MindSpore)."""
        return self

    @data.setter
    def data(self, value) -> None:
        self.set_data(value)

    def clone(self, init: str = "same") -> Parameter:  # type: ignore[override]
        """A new Parameter with the same name and ``requires_grad``; ``init`` is ``'same'``
        (copy the values), ``'zeros'`` or ``'ones'``."""
        if init not in ("same", "zeros", "ones"):
            raise ValueError(f"For 'Parameter.clone', 'init' must be 'same', 'zeros' or 'ones', "
                             f"but got {init!r}")
        xp = backend.namespace_of(self._data)
        data = {"same": self._data.copy, "zeros": lambda: xp.zeros_like(self._data),
                "ones": lambda: xp.ones_like(self._data)}[init]()
        return Parameter(Tensor(data), self.name, requires_grad=self.requires_grad)

    def __deepcopy__(self, memo):
        copied = to_ms(_UgParameter.__deepcopy__(self, memo))
        if not self._is_differentiable():
            copied._extra_dict()["trainable"] = self.requires_grad
        return copied

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (backend.to_numpy(self._data), self.name,
                                     self.requires_grad))


Parameter._result_class = Tensor


def _rebuild_tensor(array: np.ndarray) -> Tensor:
    return Tensor(array)


def _rebuild_parameter(array: np.ndarray, name, requires_grad: bool) -> Parameter:
    return Parameter(array, name, requires_grad=requires_grad)


class ParameterTuple(_ugnn.ParameterTuple):
    """MindSpore's tuple of Parameters (``ParameterTuple(net.trainable_params())``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> params = ms.ParameterTuple([ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")])
        >>> params.clone(prefix="accumulate_", init="zeros")[0]
        Parameter (name=accumulate_.w, shape=(2,), dtype=Float32, requires_grad=True)
    """

    def __new__(cls, iterable=()):
        return super().__new__(cls, [to_ms(p) for p in iterable])

    def clone(self, prefix: str, init: str = "same") -> ParameterTuple:
        """New Parameters named ``prefix + '.' + name`` filled with ``init``
        (``'same'``, ``'zeros'`` or ``'ones'``)."""
        return ParameterTuple(super().clone(prefix, init))
