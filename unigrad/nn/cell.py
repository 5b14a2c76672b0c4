"""``Cell`` (MindSpore) and ``Module`` (PyTorch): one class for networks with Parameters.

A Cell registers the Parameters, sub-Cells and buffers assigned to its
attributes, so ``parameters()``, ``trainable_params()``, ``state_dict()`` and
the other walks find them in assignment order. Calling a Cell runs its
``construct`` (MindSpore) or ``forward`` (PyTorch) method; a Cell that
defines ``bprop(self, *inputs, out, dout)`` gets that as its backward.

Parameter names are MindSpore's: a Parameter assigned as ``self.weight`` is
named ``weight`` unless the user named it, and assigning a Cell as
``self.fc`` prefixes the names of all its Parameters with ``fc.`` (a Cell
built with ``auto_prefix=False``, like the training wrappers, does not
prefix its children). ``named_parameters()`` and ``state_dict()`` keys are
always the attribute paths, as in PyTorch.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator

import numpy as np

from .. import _state
from ..autograd.grad_mode import no_grad
from ..backend import _BY_NAME, Device, DType, float16, float32, float64, to_device, to_numpy_dtype
from ..context import GRAPH_MODE
from ..tensor import Tensor, bump_version
from .parameter import Parameter, clear_grad

_local = _state.local
_global = _state.global_state
_graph_function_lock = threading.Lock()

_DTYPE_NAMES = frozenset(_BY_NAME)


class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What :meth:`Cell.load_state_dict` returns: ``(missing_keys, unexpected_keys)``,
    printed as PyTorch prints it.

    Example:
        >>> from unigrad.nn.cell import IncompatibleKeys
        >>> IncompatibleKeys([], [])
        <All keys matched successfully>
        >>> IncompatibleKeys(["bias"], [])
        _IncompatibleKeys(missing_keys=['bias'], unexpected_keys=[])
    """

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, "
                f"unexpected_keys={self.unexpected_keys!r})")

    __str__ = __repr__


class _RemovableHandle:
    """Returned by the hook registrations; ``remove()`` unregisters the hook."""

    _next_id = 0

    def __init__(self, hooks: dict):
        self._hooks = hooks
        self.id = _RemovableHandle._next_id
        _RemovableHandle._next_id += 1

    def remove(self) -> None:
        self._hooks.pop(self.id, None)


class Cell:
    """Base class of every network: subclass it and define ``construct`` (or ``forward``).

    Example:
        >>> import unigrad as ug
        >>> class Affine(ug.nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = ug.nn.Parameter(ug.tensor([2.0, 3.0]))
        ...         self.b = ug.nn.Parameter(ug.tensor(1.0), requires_grad=False)
        ...     def construct(self, x):
        ...         return (x * self.w).sum() + self.b
        >>> net = Affine()
        >>> net(ug.tensor([1.0, 1.0]))
        tensor(6., grad_fn=<AddBackward0>)
        >>> [p.name for p in net.trainable_params()]
        ['w']
        >>> list(net.state_dict())
        ['w', 'b']
    """

    training: bool

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None):
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_auto_prefix", bool(auto_prefix))
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_flags", dict(flags or {}))

    # ------------------------------------------------------------ registration
    def _registries(self) -> tuple:
        try:
            return self._params, self._cells, self._buffers
        except AttributeError:
            raise AttributeError(f"cannot assign to {type(self).__name__} before "
                                 f"Cell.__init__() / Module.__init__() was called") from None

    def __setattr__(self, name: str, value) -> None:
        params, cells, buffers = self._registries()
        if isinstance(value, Parameter):
            self._forget(name)
            if value.name is None:
                value.name = name
            params[name] = value
        elif isinstance(value, Cell):
            self._forget(name)
            self._name_parameters_of(value, name)
            cells[name] = value
        elif name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                f"(ug.nn.Parameter or None expected)")
            params[name] = None
        elif name in cells:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child cell '{name}' "
                                f"(ug.nn.Cell or None expected)")
            cells[name] = None
        elif name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                f"(ug.Tensor or None expected)")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _name_parameters_of(self, child: Cell, name: str) -> None:
        """MindSpore's auto prefix, applied once: a Cell shared or re-attached later keeps
        the Parameter names its first parent gave it."""
        if self._auto_prefix and child.__dict__.get("_names_prefixed") is None:
            for param in child.get_parameters():
                param.name = f"{name}.{param.name}"
            object.__setattr__(child, "_names_prefixed", (id(self), name))

    def _rename_child(self, child: Cell, old: str, new: str) -> None:
        """A child this Cell named moved from ``old`` to ``new`` (a container renumbered it)."""
        if child.__dict__.get("_names_prefixed") != (id(self), old) or old == new:
            return
        for param in child.get_parameters():
            if param.name.startswith(old + "."):
                param.name = new + param.name[len(old):]
        object.__setattr__(child, "_names_prefixed", (id(self), new))

    def _forget(self, name: str) -> None:
        """Drop ``name`` from every registry and the instance dict (it is being re-assigned)."""
        for registry in self._registries():
            registry.pop(name, None)
        self._non_persistent.discard(name)
        self.__dict__.pop(name, None)

    def __getattr__(self, name: str):
        # only called when normal lookup fails: the registries hold the rest
        registries = self.__dict__
        for key in ("_params", "_cells", "_buffers"):
            registry = registries.get(key)
            if registry is not None and name in registry:
                return registry[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in self._registries():
            if name in registry:
                del registry[name]
                self._non_persistent.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._params) | set(self._cells)
                      | set(self._buffers))

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add ``param`` (or a ``None`` placeholder) under ``name`` (PyTorch)."""
        _check_attribute_name(name, "parameter", self)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter "
                            f"'{name}' (ug.nn.Parameter or None required)")
        if param is None:
            self._forget(name)
            self._params[name] = None
        else:
            setattr(self, name, param)

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a state tensor that is not a Parameter (BatchNorm's running statistics).

        Persistent buffers are part of ``state_dict()``.

        Example:
            >>> import unigrad as ug
            >>> cell = ug.nn.Cell()
            >>> cell.register_buffer("count", ug.tensor(0))
            >>> dict(cell.state_dict())
            {'count': tensor(0)}
        """
        _check_attribute_name(name, "buffer", self)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            f"(ug.Tensor or None required)")
        self._forget(name)
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent.add(name)

    def add_module(self, name: str, module: Cell | None) -> None:
        """Add a child Cell under ``name`` (PyTorch ``add_module``)."""
        _check_attribute_name(name, "module", self)
        if module is not None and not isinstance(module, Cell):
            raise TypeError(f"{type(module).__name__} is not a Cell subclass")
        if module is None:
            self._forget(name)
            self._cells[name] = None
        else:
            setattr(self, name, module)

    register_module = add_module
    insert_child_to_cell = add_module

    # ------------------------------------------------------------------ calling
    def __call__(self, *args, **kwargs):
        if _global.execution_mode == GRAPH_MODE and _local.trace is None:
            return self._graph_function()(*args, **kwargs)
        return self._call_pynative(*args, **kwargs)

    def _graph_function(self):
        """This cell compiled with ``ug.jit`` (GRAPH_MODE); the training flag is in the key."""
        function = self.__dict__.get("_jit_function")
        if function is None:
            with _graph_function_lock:  # one compiled function per cell, whichever thread asks
                function = self.__dict__.get("_jit_function")
                if function is None:
                    from ..graph.jit import JitFunction
                    function = JitFunction(self._call_pynative, extra_key=lambda: self.training)
                    object.__setattr__(self, "_jit_function", function)
        return function

    def _call_pynative(self, *args, **kwargs):
        for hook in tuple(self._forward_pre_hooks.values()):
            replaced = hook(self, args)
            if replaced is not None:
                args = replaced if isinstance(replaced, tuple) else (replaced,)
        if getattr(type(self), "bprop", None) is not None and not kwargs:
            from ..transforms.custom import call_with_bprop
            result = call_with_bprop(self, *args)
        else:
            result = self._run(*args, **kwargs)
        for hook in tuple(self._forward_hooks.values()):
            replaced = hook(self, args, result)
            if replaced is not None:
                result = replaced
        return result

    def _run(self, *args, **kwargs):
        cls = type(self)
        if cls.construct is not Cell.construct:
            return self.construct(*args, **kwargs)
        if cls.forward is not Cell.forward:
            return self.forward(*args, **kwargs)
        raise NotImplementedError(f"{cls.__name__} defines neither construct() (MindSpore) nor "
                                  f"forward() (PyTorch)")

    def construct(self, *args, **kwargs):
        """The computation (MindSpore's name); ``forward`` is the PyTorch spelling."""
        if type(self).forward is not Cell.forward:
            return self.forward(*args, **kwargs)
        raise NotImplementedError(f"{type(self).__name__} defines neither construct() "
                                  f"(MindSpore) nor forward() (PyTorch)")

    def forward(self, *args, **kwargs):
        """The computation (PyTorch's name); ``construct`` is the MindSpore spelling."""
        if type(self).construct is not Cell.construct:
            return self.construct(*args, **kwargs)
        raise NotImplementedError(f"{type(self).__name__} defines neither construct() "
                                  f"(MindSpore) nor forward() (PyTorch)")

    def register_forward_pre_hook(self, hook: Callable) -> _RemovableHandle:
        """``hook(cell, args)`` runs before the call; it may return replacement args."""
        handle = _RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook: Callable) -> _RemovableHandle:
        """``hook(cell, args, output)`` runs after the call; it may return a replacement output.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.Linear(2, 1)
            >>> seen = []
            >>> handle = layer.register_forward_hook(lambda cell, args, out: seen.append(out.shape))
            >>> _ = layer(ug.ones(4, 2)); handle.remove(); _ = layer(ug.ones(3, 2))
            >>> seen
            [(4, 1)]
        """
        handle = _RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    # -------------------------------------------------------------------- walks
    def named_cells(self, memo: set | None = None, prefix: str = "",
                    remove_duplicate: bool = True) -> Iterator[tuple[str, Cell]]:
        """``(path, cell)`` for this Cell and every descendant, depth first (PyTorch
        ``named_modules``; MindSpore ``cells_and_names``)."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, cell in self._cells.items():
            if cell is None:
                continue
            yield from cell.named_cells(memo, f"{prefix}.{name}" if prefix else name,
                                        remove_duplicate)

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Cell]]:
        return self.named_cells(memo, prefix, remove_duplicate)

    def cells_and_names(self, cells: set | None = None, name_prefix: str = ""):
        return self.named_cells(cells, name_prefix)

    def modules(self) -> Iterator[Cell]:
        """This Cell and every descendant (PyTorch)."""
        for _, cell in self.named_cells():
            yield cell

    def named_children(self) -> Iterator[tuple[str, Cell]]:
        """``(name, cell)`` of the direct children."""
        seen = set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                yield name, cell

    def children(self) -> Iterator[Cell]:
        for _, cell in self.named_children():
            yield cell

    def cells(self):
        """The direct child Cells (MindSpore); ``children()`` in PyTorch."""
        return self._cells.values()

    def name_cells(self) -> OrderedDict:
        """``{name: cell}`` of the direct children (MindSpore)."""
        return OrderedDict(self.named_children())

    def _named_members(self, registry: str, prefix: str, recurse: bool,
                       remove_duplicate: bool = True):
        seen = set()
        cells = self.named_cells(prefix=prefix) if recurse else [(prefix, self)]
        for cell_prefix, cell in cells:
            for name, value in getattr(cell, registry).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{cell_prefix}.{name}" if cell_prefix else name), value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(path, parameter)`` pairs; a Parameter shared by two children appears once.

        Example:
            >>> import unigrad as ug
            >>> net = ug.nn.SequentialCell(ug.nn.Dense(3, 2), ug.nn.ReLU(), ug.nn.Dense(2, 1))
            >>> [(name, tuple(p.shape)) for name, p in net.named_parameters()]
            [('0.weight', (2, 3)), ('0.bias', (2,)), ('2.weight', (1, 2)), ('2.bias', (1,))]
        """
        return self._named_members("_params", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every Parameter, trainable or not, in registration order (PyTorch)."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    get_parameters = parameters

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True):
        """``(parameter.name, parameter)`` pairs (MindSpore)."""
        for _, param in self.named_parameters(recurse=expand):
            yield param.name, param

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The Parameters with ``requires_grad=True``, as a list (MindSpore).

        This list is what ``ug.grad(..., weights=)`` and the optimizers take.
        """
        return [p for p in self.parameters(recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The Parameters with ``requires_grad=False`` (MindSpore)."""
        return [p for p in self.parameters(recurse) if not p.requires_grad]

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_submodule(self, target: str) -> Cell:
        """The descendant at the dotted path ``target`` (``''`` is this Cell)."""
        cell = self
        for part in target.split(".") if target else ():
            child = cell._cells.get(part)
            if child is None:
                raise AttributeError(f"{type(cell).__name__} has no attribute `{part}`"
                                     f" (looking up '{target}')")
            cell = child
        return cell

    def get_parameter(self, target: str) -> Parameter:
        """The Parameter at the dotted path ``target``."""
        owner, _, name = target.rpartition(".")
        cell = self.get_submodule(owner)
        param = cell._params.get(name)
        if param is None:
            raise AttributeError(f"`{name}` is not a parameter of {type(cell).__name__}"
                                 f" (looking up '{target}')")
        return param

    # -------------------------------------------------------------- state dicts
    def state_dict(self, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict:
        """Parameters and persistent buffers by path; detached tensors sharing storage.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.Dense(2, 1)
            >>> {name: tuple(t.shape) for name, t in layer.state_dict().items()}
            {'weight': (1, 2), 'bias': (1,)}
        """
        destination = OrderedDict() if destination is None else destination
        for name, tensor in self._state_items(prefix):
            destination[name] = tensor if keep_vars else tensor.detach()
        return destination

    def _state_items(self, prefix: str = "") -> Iterator[tuple[str, Tensor]]:
        for cell_prefix, cell in self.named_cells(prefix=prefix, remove_duplicate=False):
            head = f"{cell_prefix}." if cell_prefix else ""
            for name, param in cell._params.items():
                if param is not None:
                    yield head + name, param
            for name, buffer in cell._buffers.items():
                if buffer is not None and name not in cell._non_persistent:
                    yield head + name, buffer

    def load_state_dict(self, state_dict, strict: bool = True) -> IncompatibleKeys:
        """Copy values from ``state_dict`` into the Parameters and buffers, in place.

        With ``strict=True`` the keys must match exactly. Every key, shape and
        value is checked before anything is copied: on error nothing changes.
        Returns ``(missing_keys, unexpected_keys)``.

        Example:
            >>> import unigrad as ug
            >>> a, b = ug.nn.Dense(2, 1), ug.nn.Dense(2, 1)
            >>> b.load_state_dict(a.state_dict())
            <All keys matched successfully>
            >>> bool((a.weight == b.weight).all())
            True
        """
        if not hasattr(state_dict, "items"):
            raise TypeError(f"Expected state_dict to be dict-like, got "
                            f"{type(state_dict).__name__}.")
        own = OrderedDict(self._state_items())
        missing = [name for name in own if name not in state_dict]
        unexpected = [name for name in state_dict if name not in own]
        problems = []
        arrays = {}
        for name, target in own.items():
            if name not in state_dict:
                continue
            arrays[name] = array = _array_for(state_dict[name], target, name, problems)
            if array is not None and tuple(array.shape) != target.shape:
                problems.append(f"size mismatch for {name}: copying a param with shape "
                                f"{tuple(array.shape)} from checkpoint, the shape in current "
                                f"model is {target.shape}.")
        if strict:
            if unexpected:
                problems.insert(0, "Unexpected key(s) in state_dict: "
                                + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                problems.insert(0, "Missing key(s) in state_dict: "
                                + ", ".join(f'"{k}"' for k in missing) + ". ")
        if problems:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(problems))
        with no_grad():
            for name, array in arrays.items():
                target = own[name]
                target._data[...] = array
                bump_version(target)
        return IncompatibleKeys(missing, unexpected)

    # --------------------------------------------------------------- modes etc.
    def train(self, mode: bool = True) -> Cell:
        """Set training mode (Dropout active, BatchNorm uses batch statistics) recursively."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for cell in self.modules():
            object.__setattr__(cell, "training", mode)
        return self

    def eval(self) -> Cell:
        """Set evaluation mode recursively (``train(False)``)."""
        return self.train(False)

    def set_train(self, mode: bool = True) -> Cell:
        """MindSpore's spelling of ``train(mode)``."""
        return self.train(mode)

    def set_grad(self, requires_grad: bool = True) -> Cell:
        """MindSpore compatibility: gradients need no preparation here; returns self."""
        return self

    def requires_grad_(self, requires_grad: bool = True) -> Cell:
        """Set ``requires_grad`` of every floating-point Parameter."""
        for param in self.parameters():
            if param.dtype.is_floating_point:
                param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear ``.grad`` of every Parameter (to None, or zeros in place)."""
        trace = _local.trace
        for param in self.parameters():
            if trace is None:
                clear_grad(param, set_to_none)
            else:  # ug.jit: in the trace's view (replayed after each call)
                trace.clear_grad(param, set_to_none)

    def apply(self, fn: Callable[[Cell], None]) -> Cell:
        """Call ``fn`` on every descendant and then on this Cell (PyTorch order).

        Example:
            >>> import unigrad as ug
            >>> net = ug.nn.SequentialCell(ug.nn.Dense(2, 2), ug.nn.Dense(2, 1))
            >>> def zero(cell):
            ...     if isinstance(cell, ug.nn.Dense):
            ...         ug.nn.init.zeros_(cell.weight)
            >>> _ = net.apply(zero)
            >>> float(net[1].weight.abs().sum())
            0.0
        """
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    def to(self, *args, device=None, dtype=None) -> Cell:
        """Move or cast every Parameter and buffer in place: ``to(device)``, ``to(dtype)``,
        ``to(device, dtype)``; ``dtype`` applies to floating-point tensors only.

        Example:
            >>> import unigrad as ug
            >>> ug.nn.Dense(2, 1).to(ug.float64).weight.dtype
            unigrad.float64
        """
        for arg in args:
            if isinstance(arg, (DType, np.dtype)) or arg in _DTYPE_NAMES:
                dtype = arg
            else:
                device = arg
        target_dtype = to_numpy_dtype(dtype) if dtype is not None else None
        target_device = Device(device) if device is not None else None
        with no_grad():
            for tensor in list(self.parameters()) + list(self.buffers()):
                array = tensor._data
                if target_device is not None:
                    array = to_device(array, target_device)
                if target_dtype is not None and array.dtype.kind == "f":
                    array = array.astype(target_dtype)
                if array is not tensor._data:
                    tensor._data = array
                    tensor._grad = None
                    bump_version(tensor)
        return self

    def float(self) -> Cell:
        return self.to(dtype=float32)

    def double(self) -> Cell:
        return self.to(dtype=float64)

    def half(self) -> Cell:
        return self.to(dtype=float16)

    # --------------------------------------------------------------------- repr
    def extra_repr(self) -> str:
        """Text shown inside this Cell's parentheses in ``repr``; override in layers."""
        return ""

    def __repr__(self) -> str:
        lines = []
        extra = self.extra_repr()
        if extra:
            lines.extend(extra.split("\n"))
        for name, cell in self._cells.items():
            text = repr(cell).replace("\n", "\n  ")
            lines.append(f"({name}): {text}")
        name = type(self).__name__
        if not lines:
            return f"{name}()"
        if len(lines) == 1 and not self._cells:
            return f"{name}({lines[0]})"
        return f"{name}(\n  " + "\n  ".join(lines) + "\n)"


class Module(Cell):
    """PyTorch's spelling of :class:`Cell`: subclass it and define ``forward``.

    Example:
        >>> import unigrad as ug
        >>> class TwoLayer(ug.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc1 = ug.nn.Linear(3, 4)
        ...         self.fc2 = ug.nn.Linear(4, 1)
        ...     def forward(self, x):
        ...         return self.fc2(ug.relu(self.fc1(x)))
        >>> net = TwoLayer()
        >>> net(ug.ones(5, 3)).shape
        (5, 1)
        >>> [name for name, _ in net.named_parameters()]
        ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


def _check_attribute_name(name, kind: str, cell: Cell) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if not name or "." in name:
        raise KeyError(f"{kind} name can't be empty or contain \".\", got: {name!r}")
    if hasattr(type(cell), name):
        raise KeyError(f"attribute '{name}' already exists")


def _array_for(value, target: Tensor, name: str, problems: list):
    """``value`` as an array of ``target``'s dtype and device, or None with a problem noted."""
    if isinstance(value, Tensor):
        array = value._data
    else:
        try:
            array = Tensor(value)._data
        except (TypeError, ValueError):
            problems.append(f"While copying the parameter named \"{name}\", expected a Tensor "
                            f"or array, got {type(value).__name__}.")
            return None
    if array.dtype.kind == "f" and target._data.dtype.kind in "iub":
        problems.append(f"While copying the parameter named \"{name}\": cannot copy "
                        f"floating-point values into the {target.dtype} tensor.")
        return None
    return to_device(array, target.device).astype(target._data.dtype, copy=True)
