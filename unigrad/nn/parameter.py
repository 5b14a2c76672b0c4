"""Parameters: the trainable tensors of a Cell (MindSpore ``Parameter``, ``nn.Parameter``).

A :class:`Parameter` is a leaf :class:`~unigrad.Tensor` with a ``name``. Its
name is the dotted path a Cell gives it when it is assigned as an attribute
(``fc.weight``) unless the user named it. :class:`ParameterTuple` is the
tuple of Parameters MindSpore passes to ``grad(..., weights=)`` and to
optimizers; ``clone`` makes same-shaped state (MindSpore's accumulation
recipe clones the weights into zero-filled buffers).
"""

from __future__ import annotations

import numpy as np

from .. import _state
from ..backend import from_numpy_dtype, namespace_of
from ..tensor import (
    PLAIN_TENSOR_TYPES,
    Tensor,
    _make_tensor,
    as_array,
    bump_version,
    shared_counter,
)

_local = _state.local


def _array_of(data):
    if not isinstance(data, Tensor):
        return as_array(data)
    trace = _local.trace
    return data._data if trace is None else trace.read(data)  # ug.jit: its traced value


def clear_grad(tensor: Tensor, set_to_none: bool = True) -> None:
    """Drop ``tensor.grad`` (``set_to_none``) or zero it in place, detached (PyTorch's rule for
    ``Module.zero_grad`` and ``Optimizer.zero_grad``)."""
    trace = _local.trace
    if trace is not None:  # ug.jit: in the trace's view (replayed after each call)
        trace.clear_grad(tensor, set_to_none)
        return
    grad = tensor._grad
    if grad is None:
        return
    if set_to_none:
        tensor._grad = None
    else:
        if grad._grad_fn is not None:
            grad.detach_()
        else:
            grad._requires_grad = False
        grad.zero_()


class Parameter(Tensor):
    """A trainable leaf tensor with a stable ``name``.

    ``Parameter(data, name=None, requires_grad=True)`` takes MindSpore's order;
    PyTorch's ``Parameter(data, requires_grad)`` (a bool second argument) works
    too. A Tensor argument shares its storage, as ``nn.Parameter`` does. Only
    floating-point parameters take part in differentiation: an integer
    Parameter (a step counter) never requires grad.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.Parameter(ug.tensor([1.0, 2.0]), name="w")
        >>> w.name, w.requires_grad, w.is_leaf
        ('w', True, True)
        >>> (w * w).sum().backward()
        >>> w.grad
        tensor([2., 4.])
        >>> _ = w.set_data(ug.tensor([3.0, 4.0]))
        >>> w
        Parameter containing:
        tensor([3., 4.], requires_grad=True)
    """

    __slots__ = ("name",)

    def __init__(self, data=None, name: str | bool | None = None, requires_grad: bool = True):
        if isinstance(name, (bool, np.bool_)):  # PyTorch: Parameter(data, requires_grad)
            name, requires_grad = None, bool(name)
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Parameter name must be a str or None, got {type(name).__name__}")
        if not isinstance(requires_grad, (bool, np.bool_)):
            raise TypeError(f"Parameter requires_grad must be a bool, got "
                            f"{type(requires_grad).__name__}")
        if data is None:
            data = np.zeros((0,), np.float32)
        super().__init__()
        if isinstance(data, Tensor):  # shares storage (and version counter) as nn.Parameter does
            self._data = data._data
            self._vc = shared_counter(data)
        else:
            self._data = as_array(data)
        self.name = name
        if requires_grad and self._data.dtype.kind in "fc":
            self._requires_grad = True

    def set_data(self, data, slice_shape: bool = False) -> Parameter:
        """Replace the values (MindSpore); the new data is cast to this Parameter's dtype.

        The shape must stay the same unless ``slice_shape=True``. Tensors that
        saved the old values for a backward pass see a version change.

        Example:
            >>> import unigrad as ug
            >>> w = ug.nn.Parameter(ug.zeros(2), name="w")
            >>> w.set_data(ug.tensor([1, 2])).tolist()
            [1.0, 2.0]
        """
        if not isinstance(data, (Tensor, np.ndarray, int, float, list, tuple)) \
                or isinstance(data, bool):
            raise TypeError(f"For 'Parameter.set_data', the argument 'data' must be a Tensor, a "
                            f"number or an array, but got {type(data).__name__}")
        trace = _local.trace
        if trace is not None and trace.is_external(self):
            raise NotImplementedError(
                f"replacing the data of a Parameter (Parameter.set_data) inside ug.jit is not "
                f"supported for Parameter '{self.name}', which comes from outside the function: "
                f"write it in place with parameter.copy_(value) under ug.no_grad() instead")
        array = _array_of(data)
        if array.shape != self._data.shape and not slice_shape:
            raise ValueError(f"For 'Parameter.set_data', the shape of the new data {array.shape} "
                             f"must equal the shape of Parameter '{self.name}' "
                             f"{self._data.shape}")
        if array.dtype.kind == "f" and self._data.dtype.kind in "iub":
            raise TypeError(f"For 'Parameter.set_data', cannot cast "
                            f"{from_numpy_dtype(array.dtype)} data into the {self.dtype} "
                            f"Parameter '{self.name}'")
        self._data = array.astype(self._data.dtype, copy=True)
        bump_version(self)
        return self

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        copied = Parameter(_make_tensor(self._data.copy()), self.name,
                           requires_grad=self._requires_grad)
        if self._grad is not None:
            copied._grad = _make_tensor(self._grad._data.copy())
        memo[id(self)] = copied
        return copied

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (np.asarray(self._data), self.name, self._requires_grad))


PLAIN_TENSOR_TYPES.add(Parameter)


class Buffer(Tensor):
    """A tensor that, assigned as a Module attribute, is registered as a buffer (PyTorch's
    ``nn.Buffer``); ``persistent=False`` keeps it out of ``state_dict``. A Tensor argument
    shares its storage and keeps its ``requires_grad``.

    Example:
        >>> import unigrad as ug
        >>> module = ug.nn.Module()
        >>> module.total = Buffer(ug.zeros(2))
        >>> module.scratch = Buffer(ug.ones(1), persistent=False)
        >>> list(module.state_dict()), [name for name, _ in module.named_buffers()]
        (['total'], ['total', 'scratch'])
    """

    __slots__ = ("persistent",)

    def __init__(self, data=None, *, persistent: bool = True):
        if data is None:
            data = np.zeros((0,), np.float32)
        super().__init__()
        if isinstance(data, Tensor):
            self._data = data._data
            self._vc = shared_counter(data)
            self._requires_grad = data.requires_grad
        else:
            self._data = as_array(data)
        self.persistent = bool(persistent)


PLAIN_TENSOR_TYPES.add(Buffer)


def _rebuild_parameter(array, name, requires_grad):
    return Parameter(array, name, requires_grad=requires_grad)


_CLONE_INITS = ("same", "zeros", "ones")


class ParameterTuple(tuple):
    """A tuple of Parameters (MindSpore), e.g. ``ParameterTuple(net.trainable_params())``.

    Example:
        >>> import unigrad as ug
        >>> params = ug.nn.ParameterTuple([ug.nn.Parameter(ug.ones(2), name="w")])
        >>> acc = params.clone(prefix="accumulate_", init="zeros")
        >>> acc[0].name, acc[0].tolist()
        ('accumulate_.w', [0.0, 0.0])
    """

    def __new__(cls, iterable=()):
        items = tuple(iterable)
        names = set()
        for index, item in enumerate(items):
            if not isinstance(item, Parameter):
                raise TypeError(f"ParameterTuple input should be Parameter collection, but "
                                f"element {index} is {type(item).__name__}")
            if item.name is not None:
                if item.name in names:
                    raise ValueError(f"ParameterTuple: the name '{item.name}' of element "
                                     f"{index} already exists")
                names.add(item.name)
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: str = "same") -> ParameterTuple:
        """New Parameters named ``prefix + '.' + name``, filled with ``init``.

        ``init`` is ``'same'`` (a copy), ``'zeros'`` or ``'ones'``.
        """
        if not isinstance(prefix, str) or not prefix:
            raise ValueError(f"ParameterTuple.clone: 'prefix' must be a non-empty str, got "
                             f"{prefix!r}")
        if init not in _CLONE_INITS:
            raise ValueError(f"ParameterTuple.clone: 'init' must be one of {_CLONE_INITS}, got "
                             f"{init!r}")
        clones = []
        for index, param in enumerate(self):
            data = param._data
            if init == "same":
                data = data.copy()
            else:
                xp = namespace_of(data)
                data = xp.zeros_like(data) if init == "zeros" else xp.ones_like(data)
            name = f"{prefix}.{param.name if param.name is not None else index}"
            clones.append(Parameter(data, name, requires_grad=param._requires_grad))
        return ParameterTuple(clones)

    def __repr__(self) -> str:
        return "ParameterTuple(" + ", ".join(repr(p.name) for p in self) + ")"
