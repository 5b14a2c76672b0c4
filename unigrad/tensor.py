"""Tensor: a backend array plus autograd metadata (PyTorch semantics).

Operators and op methods are attached by :mod:`unigrad.ops` (one table), so
this module holds only the state and the autograd-facing behaviour.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor(2.0, requires_grad=True)
    >>> y = x * x * 3
    >>> y.backward()
    >>> x.grad
    tensor(12.)
"""

from __future__ import annotations

import threading
import warnings

import numpy as np

from . import _state, backend
from .backend import DType, ndarray
from .size import Size

_local = _state.local
_global = _state.global_state
_new_size = tuple.__new__
_grad_lock = threading.Lock()

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


def version_of(tensor: Tensor) -> int:
    """How many in-place modifications the tensor's storage has seen."""
    counter = tensor._vc
    return 0 if counter is None else counter[0]


def checked_requires_grad(value, caller: str) -> bool:
    """``value`` of a ``requires_grad=`` argument as a bool; anything but a bool is refused.

    Example:
        >>> from unigrad.tensor import checked_requires_grad
        >>> checked_requires_grad(True, "ones")
        True
        >>> checked_requires_grad("yes", "ones")
        Traceback (most recent call last):
        ...
        TypeError: ones(): argument 'requires_grad' must be bool, not str
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{caller}(): argument 'requires_grad' must be bool, not "
                        f"{type(value).__name__}")
    return bool(value)


def shared_counter(tensor: Tensor) -> list:
    """The tensor's version counter, created on demand so views and aliases can share it.

    Tensors start without one (version 0): most are never modified in place or
    viewed, and one list fewer per op is measurable on the eager hot path.
    """
    counter = tensor._vc
    if counter is None:
        counter = tensor._vc = [0]
        _link_saved_output(tensor, counter)
    return counter


def bump_version(tensor: Tensor) -> None:
    """Record one in-place modification of the tensor's storage."""
    counter = tensor._vc
    if counter is None:
        tensor._vc = [1]
        _link_saved_output(tensor, tensor._vc)
    else:
        counter[0] += 1


def _link_saved_output(tensor: Tensor, counter: list) -> None:
    """A node that saved this tensor as its output (at version 0, with no counter yet)
    now watches the counter just created, so later in-place changes are detected."""
    node = tensor._grad_fn
    if node is not None and node.out is tensor._data and node.out_counter is None:
        node.out_counter = counter


def _check_concrete(tensor: Tensor, what: str) -> None:
    """Inside ``ug.jit``: refuse to read a traced tensor as a concrete value."""
    trace = _local.trace
    if trace is not None:
        trace.check_concrete(tensor, what)


def note_created(tensor: Tensor) -> Tensor:
    """Tell an active graph-mode trace that ``tensor`` was made during the trace (a constant)."""
    trace = _local.trace
    if trace is not None:
        trace.note_created(tensor)
    return tensor


def _traced_detach(tensor: Tensor):
    """The traced value of ``tensor.detach()``: a ``stop_gradient`` eqn of the graph."""
    from .autograd.grad_mode import no_grad
    from .ops.elementwise import stop_gradient_p
    with no_grad():
        return stop_gradient_p(tensor)._data


def _make_tensor(data, requires_grad: bool = False) -> Tensor:
    """Wrap a backend array without copying or checking (internal fast path)."""
    t = object.__new__(Tensor)
    t._data = data
    t._requires_grad = requires_grad
    t._grad_fn = None
    t._grad = None
    t._vc = None
    t._extra = None
    return t


def as_array(data, dtype=None, device=None):
    """Convert user data to a backend array with PyTorch's dtype inference.

    Python floats (and lists of them) become float32, ints int64, bools bool;
    NumPy arrays and scalars keep their dtype; Tensors are copied.
    """
    np_dtype = backend.to_numpy_dtype(dtype) if dtype is not None else None
    if isinstance(data, Tensor):
        array = data._data.copy()
    elif isinstance(data, (ndarray, np.generic)):
        array = np.array(data)
    elif hasattr(data, "__cuda_array_interface__"):
        array = data.copy()
    else:
        array = _from_python(data, infer_dtype=np_dtype is None)
    if np_dtype is not None and array.dtype != np_dtype:
        array = array.astype(np_dtype)
    if array.dtype not in backend._BY_NUMPY:
        raise TypeError(f"can't convert data of dtype {array.dtype} to a Tensor; supported dtypes "
                        "are bool, integer, float16/32/64 and complex64/128")
    if device is not None:
        array = backend.to_device(array, backend.Device(device))
    return array


def _from_python(data, infer_dtype: bool = True) -> ndarray:
    if isinstance(data, (list, tuple)) and any(isinstance(item, Tensor) for item in _flatten(data)):
        data = _replace_tensors(data)
    try:
        array = np.array(data)
    except ValueError as error:
        raise ValueError(f"data must be a rectangular nested sequence of numbers: "
                         f"{error}") from None
    if array.dtype == object or array.dtype.kind in "USV":
        raise _not_numbers(data)
    if not infer_dtype:  # the caller casts once, straight from the exact values
        return array
    if array.dtype == np.float64 and not _has_numpy_float64(data):
        array = array.astype(backend.default_float())
    elif array.dtype == np.complex128 and not _has_numpy_float64(data):
        array = array.astype(backend.default_complex())
    elif array.dtype.kind in "iu" and array.dtype != backend.DEFAULT_INT:
        array = array.astype(backend.DEFAULT_INT)
    return array


def _not_numbers(data) -> Exception:
    """PyTorch's error for data that is not numbers: a ValueError for strings, else a
    RuntimeError ("Could not infer dtype"), naming the offending element's type; a string
    alone is PyTorch's TypeError."""
    if isinstance(data, (str, bytes)):
        return TypeError(f"new(): invalid data type '{type(data).__name__}': data must be "
                         f"numbers, nested lists of numbers, an array or a Tensor, got "
                         f"{data!r:.40}")
    leaf = next((item for item in _flatten(data)
                 if not isinstance(item, (bool, int, float, complex, np.generic, ndarray))), data)
    kind = type(leaf).__name__
    text = (f"data must be numbers, nested lists of numbers, an array or a Tensor, got "
            f"{kind} {leaf!r:.40}")
    if isinstance(leaf, (str, bytes)):
        return ValueError(f"too many dimensions '{kind}': {text}")
    return RuntimeError(f"Could not infer dtype of {kind}: {text}")


def _flatten(data):
    if isinstance(data, (list, tuple)):
        for item in data:
            yield from _flatten(item)
    else:
        yield data


def _replace_tensors(data):
    if isinstance(data, (list, tuple)):
        return [_replace_tensors(item) for item in data]
    if isinstance(data, Tensor):
        return backend.to_numpy(data._data)
    return data


def _has_numpy_float64(data) -> bool:
    """Whether ``data`` holds a NumPy float64/complex128 value, which keeps its precision."""
    return any(isinstance(item, (np.float64, np.complex128, ndarray))
               and np.asarray(item).dtype in (np.float64, np.complex128)
               for item in _flatten(data))


class Tensor:
    """An n-dimensional array that records operations for automatic differentiation.

    ``Tensor(data, dtype=None, requires_grad=False, device=None)`` behaves as
    :func:`unigrad.tensor`.

    Example:
        >>> import unigrad as ug
        >>> t = ug.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> t.shape, t.dtype
        ((2, 2), unigrad.float32)
    """

    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_grad", "_vc", "_extra", "__weakref__")
    #: The class of the results of ops on this tensor (a front-end subclass sets itself).
    _result_class: type
    __array_priority__ = 1000

    def __init__(self, data=None, dtype=None, requires_grad: bool = False, device=None):
        if data is None:
            data = []
        array = as_array(data, dtype, device)
        self._data = array
        self._requires_grad = False
        self._grad_fn = None
        self._grad = None
        self._vc = None
        self._extra = None
        if _local.trace is not None:
            note_created(self)
        if checked_requires_grad(requires_grad, "tensor"):
            self.requires_grad_(True)

    # ------------------------------------------------------------------ basics
    @property
    def shape(self) -> tuple:
        """The shape: a tuple of ints (a ``torch.Size`` under PyTorch's names)."""
        if _global.text_names == "unigrad":
            return self._data.shape
        return _new_size(Size, self._data.shape)

    @property
    def dtype(self) -> DType:
        return backend._BY_NUMPY[self._data.dtype]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def device(self) -> backend.Device:
        return backend.device_of(self._data)

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    def dim(self) -> int:
        return self._data.ndim

    def size(self, dim: int | None = None):
        """The shape (as :attr:`shape` gives it), or its length along ``dim``."""
        if dim is None:
            return self.shape
        return self._data.shape[dim]

    def numel(self) -> int:
        return int(self._data.size)

    def element_size(self) -> int:
        return self._data.dtype.itemsize

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self._data.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes of all elements (``numel() * itemsize``)."""
        return int(self._data.size) * self._data.dtype.itemsize

    def stride(self, dim: int | None = None):
        """The step, in elements, between neighbours along each dimension (or ``dim``).

        Example:
            >>> import unigrad as ug
            >>> ug.zeros(2, 3).stride(), ug.zeros(2, 3).t().stride(0)
            ((3, 1), 1)
        """
        steps = tuple(step // self._data.dtype.itemsize for step in self._data.strides)
        return steps if dim is None else steps[dim]

    def is_contiguous(self, memory_format=None) -> bool:
        """Whether the elements lie in memory in row-major order without gaps."""
        return bool(self._data.flags.c_contiguous)

    def data_ptr(self) -> int:
        """The address of the first element."""
        data = self._data
        if isinstance(data, np.ndarray):
            return int(data.__array_interface__["data"][0])
        return int(data.data.ptr)  # CuPy

    def get_device(self) -> int:
        """The CUDA device index, or -1 for a CPU tensor (PyTorch's)."""
        device = self.device
        return -1 if device.type == "cpu" else (device.index or 0)

    @property
    def is_floating_point_dtype(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_complex(self) -> bool:
        """Whether the dtype is complex (complex64 or complex128)."""
        return self._data.dtype.kind == "c"

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    __hash__ = object.__hash__

    # ------------------------------------------------------------ conversions
    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The data as a NumPy array sharing memory (CPU tensors not requiring grad)."""
        if self._requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        if self.device.type != "cpu" and not force:
            raise TypeError("can't convert cuda tensor to numpy. Use Tensor.cpu() to copy "
                            "the tensor to host memory first.")
        _check_concrete(self, "Conversion to a NumPy array")
        return backend.to_numpy(self._data)

    def __array__(self, dtype=None, copy=None):
        _check_concrete(self, "Conversion to a NumPy array")
        array = backend.to_numpy(self._data)
        if dtype is not None:
            array = array.astype(dtype, copy=False)
        return array.copy() if copy else array

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               "to Scalar")
        _check_concrete(self, ".item()")
        return self._data.reshape(()).item()

    def tolist(self):
        _check_concrete(self, ".tolist()")
        return backend.to_numpy(self._data).tolist()

    def __float__(self) -> float:
        return float(self._scalar_for("float"))

    def __int__(self) -> int:
        return int(self._scalar_for("int"))

    def _scalar_for(self, conversion: str):
        """The one element, for ``int()``/``float()`` (PyTorch's ValueError otherwise)."""
        if self._data.size != 1:
            raise ValueError(f"only one element tensors can be converted to Python scalars "
                             f"({conversion}() of a tensor with {self._data.size} elements)")
        return self.item()

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        _check_concrete(self, "Python bool() (an `if`, `while`, `and`/`or` or `assert`)")
        return bool(self._data.reshape(()).item())

    def __dlpack__(self, *args, **kwargs):
        return self._data.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._data.__dlpack_device__()

    # ------------------------------------------------------------ autograd state
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise RuntimeError(f"requires_grad must be a bool, got {type(value).__name__}")
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place (leaf tensors only) and return self."""
        if not isinstance(requires_grad, (bool, np.bool_)):
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError("you can only change requires_grad flags of leaf variables. If "
                                   "you want to use a computed variable in a subgraph that doesn't "
                                   "require differentiation use var_no_grad = var.detach().")
            return self
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

    @property
    def grad(self):
        trace = _local.trace
        grad = self._grad if trace is None else trace.grad_of(self)  # ug.jit: the trace's view
        if grad is None and self._grad_fn is not None and not self.retains_grad:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of "
                                f"type {type(value).__name__}")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a "
                    f"tensor of size '{list(self._data.shape)}'. Please ensure that the gradient "
                    "and the tensor are the same size")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(f"attempting to assign a gradient with dtype "
                                   f"'{value.dtype}' to a tensor with dtype '{self.dtype}'. Please "
                                   "ensure that the gradient and the tensor have the same dtype")
        trace = _local.trace
        if trace is not None:  # ug.jit: assigned in the trace's view (replayed after each call)
            trace.set_grad(self, value)
        else:
            self._grad = value

    @grad.deleter
    def grad(self) -> None:
        trace = _local.trace
        if trace is not None:
            trace.set_grad(self, None)
        else:
            self._grad = None

    @property
    def retains_grad(self) -> bool:
        node = self._grad_fn
        return node is not None and node.hooks is not None and node.hooks.retained is not None \
            and node.hooks.retained() is self

    def retain_grad(self) -> None:
        """Populate ``.grad`` of this non-leaf tensor during backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None:
            return
        import weakref
        self._grad_fn._hooks().retained = weakref.ref(self)

    def register_hook(self, hook):
        """Run ``hook(grad)`` when this tensor's gradient is computed.

        The hook may return a replacement gradient. Returns a handle whose
        ``remove()`` unregisters it.

        Example:
            >>> import unigrad as ug
            >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
            >>> h = x.register_hook(lambda g: g * 2)
            >>> (x * 3).sum().backward()
            >>> x.grad
            tensor([6., 6.])
        """
        from .autograd.node import _HookHandle
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if not callable(hook):
            raise TypeError(f"hook must be callable, got {type(hook).__name__}")
        if self._grad_fn is not None:
            return _HookHandle(self._grad_fn._hooks().tensor_hooks, hook)
        return _HookHandle(self._extra_dict().setdefault("hooks", []), hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Run ``hook(tensor)`` after ``.grad`` of this leaf has been accumulated."""
        from .autograd.node import _HookHandle
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        return _HookHandle(self._extra_dict().setdefault("post_accumulate_hooks", []), hook)

    def _extra_dict(self) -> dict:
        if self._extra is None:
            self._extra = {}
        return self._extra

    def _mark_inference(self) -> None:
        self._extra_dict()["inference"] = True

    def is_inference(self) -> bool:
        return bool(self._extra and self._extra.get("inference"))

    @property
    def _version(self) -> int:
        return version_of(self)

    def _bump_version(self) -> None:
        if self._extra is not None and self._extra.get("inference") and not _local.inference_mode:
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
                "make a clone to get a normal tensor before doing inplace update.See "
                "https://github.com/pytorch/rfcs/pull/17 for more details.")
        bump_version(self)

    def backward(self, gradient=None, retain_graph=None, create_graph: bool = False, inputs=None):
        """Accumulate the gradient of this tensor into ``.grad`` of the graph's leaves.

        Example:
            >>> import unigrad as ug
            >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
            >>> (x ** 2).sum().backward()
            >>> x.grad
            tensor([2., 4.])
        """
        from .autograd.api import backward
        backward(self, gradient, retain_graph=retain_graph, create_graph=create_graph,
                 inputs=inputs)

    # ----------------------------------------------------------- detaching
    def detach(self) -> Tensor:
        """A new tensor sharing storage and version counter, outside the graph."""
        data = self._data
        if type(data) is np.ndarray:
            pass
        elif self._requires_grad and _local.trace is not None and \
                getattr(data, "trace", None) is _local.trace:
            data = _traced_detach(self)  # the graph keeps the cut (grad of a jitted call)
        elif hasattr(data, "detached"):
            data = data.detached()  # a vmap batch: its whole-batch value leaves the graph too
        t = _make_tensor(data)
        t._vc = shared_counter(self)
        return t

    def detach_(self) -> Tensor:
        """Detach this tensor from the graph in place (it becomes a leaf)."""
        self._grad_fn = None
        self._requires_grad = False
        _global.history_generation += 1  # its views re-derive their history when next used
        return self

    @property
    def data(self) -> Tensor:
        return self.detach()

    @data.setter
    def data(self, value) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
        trace = _local.trace
        if trace is not None and (trace.is_external(self) or trace.is_external(value)):
            raise NotImplementedError(
                "replacing the data of a tensor (tensor.data = ...) inside ug.jit is not "
                "supported when either tensor comes from outside the function: write it in "
                "place with tensor.copy_(value) instead")
        self._data = value._data

    def _leaf_inplace_check(self) -> None:
        if self._requires_grad and self._grad_fn is None and _local.grad_enabled:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                               "operation.")

    def __repr__(self) -> str:
        from ._format import format_tensor
        _check_concrete(self, "Conversion to a NumPy array")  # ug.jit: no values to print
        return format_tensor(self)

    def __format__(self, spec: str) -> str:
        if spec and self._data.size == 1:
            return format(self.item(), spec)
        return repr(self) if not spec else format(repr(self), spec)

    def __reduce_ex__(self, protocol):
        leaf_requires_grad = self._requires_grad and self.is_leaf
        return (_rebuild_tensor, (backend.to_numpy(self._data), leaf_requires_grad))

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support "
                               "the deepcopy protocol at the moment.")
        copied = _make_tensor(self._data.copy(), self._requires_grad)
        if self._grad is not None:
            copied._grad = _make_tensor(self._grad._data.copy())
        memo[id(self)] = copied
        return copied


# Tensor and the subclasses that add only attributes (Parameter): the eager fast paths in
# ops/ test ``type(x) in PLAIN_TENSOR_TYPES``, as cheap as ``type(x) is Tensor``.
Tensor._result_class = Tensor
PLAIN_TENSOR_TYPES = {Tensor}


def _rebuild_tensor(array, requires_grad):
    return _make_tensor(array, requires_grad)
