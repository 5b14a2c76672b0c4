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

import functools
import threading
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator, Mapping

import numpy as np

from .. import _state
from ..autograd.function import Function
from ..autograd.grad_mode import no_grad
from ..backend import (
    _BY_NAME,
    Device,
    DType,
    float16,
    float32,
    float64,
    namespace_of,
    to_device,
    to_numpy_dtype,
)
from ..context import GRAPH_MODE
from ..tensor import Tensor, _make_tensor, bump_version, shared_counter
from .parameter import Buffer, Parameter, clear_grad

_local = _state.local
_global = _state.global_state
_graph_function_lock = threading.Lock()
_loading = threading.local()

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
    """Returned by the hook registrations; ``remove()`` (or leaving a ``with`` block)
    unregisters the hook."""

    _next_id = 0

    def __init__(self, hooks: dict, extra: tuple = ()):
        self._hooks = hooks
        self._extra = extra
        self.id = _RemovableHandle._next_id
        _RemovableHandle._next_id += 1

    def remove(self) -> None:
        self._hooks.pop(self.id, None)
        for registry in self._extra:
            registry.pop(self.id, None)

    def __enter__(self) -> _RemovableHandle:
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()


def _registered(hooks: OrderedDict, hook: Callable, prepend: bool,
                extra: tuple = ()) -> _RemovableHandle:
    """Add ``hook`` to ``hooks`` (first when ``prepend``) and return its handle."""
    handle = _RemovableHandle(hooks, extra)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


_HOOK_REGISTRIES = (
    "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
    "_forward_hooks_with_kwargs", "_forward_hooks_always_called", "_backward_pre_hooks",
    "_backward_hooks", "_state_dict_pre_hooks", "_state_dict_hooks",
    "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks",
)


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

    # the mode a new cell is in (PyTorch's modules start training; MindSpore's Cells do not)
    _starts_training = True

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None):
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        for registry in _HOOK_REGISTRIES:
            object.__setattr__(self, registry, OrderedDict())
        object.__setattr__(self, "_is_full_backward_hook", None)
        object.__setattr__(self, "_auto_prefix", bool(auto_prefix))
        object.__setattr__(self, "training", self._starts_training)
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
        elif isinstance(value, Buffer):
            self.register_buffer(name, value, persistent=value.persistent)
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
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks) and getattr(type(self), "bprop", None) is None:
            # the common case in one frame: deep nestings of cells recurse as PyTorch's do
            return self._implementation()(*args, **kwargs)
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
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks):
            return self._forward_call(args, kwargs)
        return self._call_with_hooks(args, kwargs)

    def _forward_call(self, args: tuple, kwargs: dict):
        if getattr(type(self), "bprop", None) is not None and not kwargs:
            from ..transforms.custom import call_with_bprop
            return call_with_bprop(self, *args)
        return self._run(*args, **kwargs)

    def _call_with_hooks(self, args: tuple, kwargs: dict):
        """PyTorch's call order: forward pre-hooks, input backward hooks, forward, forward
        hooks, output backward hooks; ``always_call`` forward hooks also run on an error."""
        result = None
        called = set()
        try:
            args, kwargs = self._run_forward_pre_hooks(args, kwargs)
            full_hooks = list(self._backward_hooks.values()) if self._is_full_backward_hook \
                else []
            backward_hook = None
            if full_hooks or self._backward_pre_hooks:
                backward_hook = _BackwardHook(self, full_hooks,
                                              list(self._backward_pre_hooks.values()))
                args = backward_hook.wrap_inputs(args)
            result = self._forward_call(args, kwargs)
            for hook_id, hook in tuple(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called:
                    called.add(hook_id)
                result = self._run_forward_hook(hook_id, hook, args, kwargs, result)
            if backward_hook is not None:
                result = backward_hook.wrap_outputs(result)
            if self._is_full_backward_hook is False and self._backward_hooks:
                self._attach_module_backward_hooks(result)
            return result
        except Exception:
            self._run_always_called_hooks(called, args, kwargs, result)
            raise

    def _run_forward_pre_hooks(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        for hook_id, hook in tuple(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                replaced = hook(self, args, kwargs)
                if replaced is None:
                    continue
                if not (isinstance(replaced, tuple) and len(replaced) == 2):
                    raise RuntimeError(f"forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {replaced}.")
                args, kwargs = replaced
            else:
                replaced = hook(self, args)
                if replaced is not None:
                    args = replaced if isinstance(replaced, tuple) else (replaced,)
        return args, kwargs

    def _run_forward_hook(self, hook_id: int, hook: Callable, args: tuple, kwargs: dict, result):
        if hook_id in self._forward_hooks_with_kwargs:
            replaced = hook(self, args, kwargs, result)
        else:
            replaced = hook(self, args, result)
        return result if replaced is None else replaced

    def _run_always_called_hooks(self, called: set, args: tuple, kwargs: dict, result) -> None:
        for hook_id, hook in tuple(self._forward_hooks.items()):
            if hook_id not in self._forward_hooks_always_called or hook_id in called:
                continue
            try:
                result = self._run_forward_hook(hook_id, hook, args, kwargs, result)
            except Exception as error:
                warnings.warn(f"forward hook with ``always_call=True`` raised an exception that "
                              f"was silenced as another error was raised in forward: {error}",
                              stacklevel=3)

    def _attach_module_backward_hooks(self, result) -> None:
        """The deprecated ``register_backward_hook``: on the node of the first output tensor."""
        first = result
        while not isinstance(first, Tensor):
            if isinstance(first, dict):
                first = next(v for v in first.values() if isinstance(v, Tensor))
            else:
                first = first[0]
        node = first.grad_fn
        if node is None:
            return
        for hook in self._backward_hooks.values():
            node.register_hook(functools.partial(_call_module_hook, hook, self))

    def _run(self, *args, **kwargs):
        return self._implementation()(*args, **kwargs)

    def _implementation(self):
        """The bound method computing this cell: its ``construct`` or its ``forward`` (with
        its control flow converted while ``ug.jit`` traces with autograph)."""
        cls = type(self)
        if cls.construct is not Cell.construct:
            method = self.construct
        elif cls.forward is not Cell.forward:
            method = self.forward
        else:
            method = None
        if method is not None:
            if _local.autograph:
                from ..graph.autograph import convert
                return convert(method)
            return method
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

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> _RemovableHandle:
        """``hook(module, args)`` runs before ``forward`` and may return replacement args;
        with ``with_kwargs=True`` it is ``hook(module, args, kwargs)`` returning ``None`` or
        ``(args, kwargs)``. ``prepend=True`` runs it before the hooks already registered.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.Identity()
            >>> handle = layer.register_forward_pre_hook(lambda module, args: args[0] * 10)
            >>> layer(ug.tensor(1.0))
            tensor(10.)
        """
        extra = (self._forward_pre_hooks_with_kwargs,)
        handle = _registered(self._forward_pre_hooks, hook, prepend, extra)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False,
                              always_call: bool = False) -> _RemovableHandle:
        """``hook(module, args, output)`` runs after ``forward`` and may return a replacement
        output (``hook(module, args, kwargs, output)`` with ``with_kwargs=True``);
        ``always_call=True`` runs it even when ``forward`` raises.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.Linear(2, 1)
            >>> seen = []
            >>> handle = layer.register_forward_hook(lambda cell, args, out: seen.append(out.shape))
            >>> _ = layer(ug.ones(4, 2)); handle.remove(); _ = layer(ug.ones(3, 2))
            >>> seen
            [(4, 1)]
        """
        extra = (self._forward_hooks_with_kwargs, self._forward_hooks_always_called)
        handle = _registered(self._forward_hooks, hook, prepend, extra)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_pre_hook(self, hook: Callable,
                                        prepend: bool = False) -> _RemovableHandle:
        """``hook(module, grad_output)`` runs when the gradients of the module's outputs are
        known, before those of its inputs; it may return a replacement ``grad_output``.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.Identity()
            >>> handle = layer.register_full_backward_pre_hook(
            ...     lambda module, grad_output: (grad_output[0] * 3,))
            >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
            >>> layer(x).sum().backward()
            >>> x.grad
            tensor([3., 3.])
        """
        return _registered(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook: Callable,
                                    prepend: bool = False) -> _RemovableHandle:
        """``hook(module, grad_input, grad_output)`` runs when the gradients of the module's
        positional inputs are known (one entry per argument, ``None`` for non-tensors); it may
        return a replacement ``grad_input``.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.Linear(2, 1)
            >>> _ = ug.nn.init.ones_(layer.weight)
            >>> seen = []
            >>> handle = layer.register_full_backward_hook(
            ...     lambda module, grad_input, grad_output: seen.append(grad_input[0]))
            >>> layer(ug.ones(1, 2, requires_grad=True)).sum().backward()
            >>> seen
            [tensor([[1., 1.]])]
        """
        self._check_backward_hook_kind(True)
        return _registered(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook: Callable) -> _RemovableHandle:
        """Deprecated (PyTorch): ``hook(module, grad_input, grad_output)`` on the autograd
        node of the first output, with that node's gradients; prefer
        :meth:`register_full_backward_hook`. Its return value is ignored."""
        self._check_backward_hook_kind(False)
        return _registered(self._backward_hooks, hook, False)

    def _check_backward_hook_kind(self, full: bool) -> None:
        if self._is_full_backward_hook is (not full):
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", full)

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
        cells = self.named_cells(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
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

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target``."""
        owner, _, name = target.rpartition(".")
        cell = self.get_submodule(owner)
        buffer = cell._buffers.get(name)
        if buffer is None:
            raise AttributeError(f"`{name}` is not a buffer of {type(cell).__name__}"
                                 f" (looking up '{target}')")
        return buffer

    def _get_name(self) -> str:
        return type(self).__name__

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
    _version: int = 1

    def state_dict(self, *, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict:
        """Parameters and persistent buffers by path; detached tensors sharing storage.

        Runs the state-dict hooks and records each module's ``_version`` in the result's
        ``_metadata``, as PyTorch does.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.Dense(2, 1)
            >>> {name: tuple(t.shape) for name, t in layer.state_dict().items()}
            {'weight': (1, 2), 'bias': (1,)}
        """
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in tuple(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                                keep_vars=keep_vars)
        for hook in tuple(self._state_dict_hooks.values()):
            result = hook(self, destination, prefix, local_metadata)
            if result is not None:
                if getattr(hook, "_from_public_api", False):
                    raise RuntimeError("state_dict post-hook must return None")
                destination = result
        return destination

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        """Put this module's own Parameters, persistent buffers and extra state (not its
        children's) into ``destination``; override to change what a module saves."""
        for name, tensor in self._own_state().items():
            destination[prefix + name] = tensor if keep_vars else tensor.detach()
        if type(self).get_extra_state is not Cell.get_extra_state:
            destination[prefix + _EXTRA_STATE] = self.get_extra_state()

    def _own_state(self) -> OrderedDict:
        state = OrderedDict((name, p) for name, p in self._params.items() if p is not None)
        state.update((name, b) for name, b in self._buffers.items()
                     if b is not None and name not in self._non_persistent)
        return state

    def _state_items(self, prefix: str = "") -> Iterator[tuple[str, Tensor]]:
        for cell_prefix, cell in self.named_cells(prefix=prefix, remove_duplicate=False):
            head = f"{cell_prefix}." if cell_prefix else ""
            for name, tensor in cell._own_state().items():
                yield head + name, tensor

    def get_extra_state(self):
        """State beyond Parameters and buffers for ``state_dict`` (key ``_extra_state``);
        override together with :meth:`set_extra_state`.

        Example:
            >>> import unigrad as ug
            >>> class Counter(ug.nn.Module):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.calls = 0
            ...     def get_extra_state(self):
            ...         return {"calls": self.calls}
            ...     def set_extra_state(self, state):
            ...         self.calls = state["calls"]
            >>> first, second = Counter(), Counter()
            >>> first.calls = 3
            >>> second.load_state_dict(first.state_dict())
            <All keys matched successfully>
            >>> second.calls
            3
        """
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be "
                           "called: override get_extra_state() to save extra state.")

    def set_extra_state(self, state) -> None:
        """Restore what :meth:`get_extra_state` returned (override both)."""
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be "
                           "called: override set_extra_state() to load extra state.")

    def register_state_dict_pre_hook(self, hook: Callable) -> _RemovableHandle:
        """``hook(module, prefix, keep_vars)`` runs before ``state_dict`` saves this module."""
        return _registered(self._state_dict_pre_hooks, hook, False)

    def register_state_dict_post_hook(self, hook: Callable) -> _RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata)`` runs after ``state_dict`` saved
        this module and its children; it may edit ``state_dict`` in place (and must return
        None)."""
        hook = _public_hook(hook)
        return _registered(self._state_dict_hooks, hook, False)

    def _register_state_dict_hook(self, hook: Callable) -> _RemovableHandle:
        """Like :meth:`register_state_dict_post_hook`, but a returned dict replaces the
        state dict (PyTorch's private variant)."""
        return _registered(self._state_dict_hooks, hook, False)

    def register_load_state_dict_pre_hook(self, hook: Callable) -> _RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs before this module loads its entries."""
        return _registered(self._load_state_dict_pre_hooks, hook, False)

    def _register_load_state_dict_pre_hook(self, hook: Callable,
                                           with_module: bool = False) -> _RemovableHandle:
        """PyTorch's private variant: ``hook`` gets no module unless ``with_module``."""
        if not with_module:
            hook = _dropping_module(hook)
        return self.register_load_state_dict_pre_hook(hook)

    def register_load_state_dict_post_hook(self, hook: Callable) -> _RemovableHandle:
        """``hook(module, incompatible_keys)`` runs after ``load_state_dict`` loaded this
        module; it may edit ``incompatible_keys.missing_keys``/``unexpected_keys`` in place
        (``strict=True`` then checks what is left)."""
        return _registered(self._load_state_dict_post_hooks, hook, False)

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict,
                              strict: bool, missing_keys: list, unexpected_keys: list,
                              error_msgs: list) -> None:
        """Load this module's own entries (``prefix + name``) of ``state_dict``, noting
        missing and unexpected keys and errors; override to convert old checkpoints.

        Under :meth:`load_state_dict` the copies are only planned here, and made once every
        module has been checked without error (so nothing changes when loading fails).
        """
        for hook in tuple(self._load_state_dict_pre_hooks.values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs)
        own = self._own_state()
        for name, target in own.items():
            key = prefix + name
            if key in state_dict:
                self._plan_copy(name, key, target, state_dict[key], error_msgs)
            elif strict:
                missing_keys.append(key)
        extra_key = prefix + _EXTRA_STATE
        if type(self).set_extra_state is not Cell.set_extra_state:
            if extra_key in state_dict:
                _load_action(functools.partial(self.set_extra_state, state_dict[extra_key]))
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            unexpected_keys.extend(key for key in state_dict
                                   if key.startswith(prefix) and key != extra_key
                                   and _is_unexpected(key[len(prefix):], own, self._cells))

    def _plan_copy(self, name: str, key: str, target: Tensor, value, error_msgs: list) -> None:
        problems: list = []
        array = _array_for(value, target, key, problems)
        if array is not None and target.ndim == 0 and array.shape == (1,):
            array = array.reshape(())
        if array is not None and tuple(array.shape) != target.shape:
            problems.append(f"size mismatch for {key}: copying a param with shape "
                            f"{tuple(array.shape)} from checkpoint, the shape in current model "
                            f"is {target.shape}.")
        error_msgs.extend(problems)
        if problems:
            return
        if _load_assigns():
            _load_action(functools.partial(self._assign_loaded, name, target, value, array))
        else:
            _load_action(functools.partial(_copy_loaded, target, array))

    def _assign_loaded(self, name: str, target: Tensor, value, array) -> None:
        """``load_state_dict(assign=True)``: the checkpoint's tensor replaces ``target``."""
        tensor = value if isinstance(value, Tensor) else Tensor(array)
        if isinstance(target, Parameter):
            if isinstance(tensor, Parameter):
                tensor.requires_grad_(target.requires_grad)
            else:
                tensor = Parameter(tensor, requires_grad=target.requires_grad)
            if tensor.name is None:
                tensor.name = target.name
            self._params[name] = tensor
        else:
            self._buffers[name] = tensor

    def load_state_dict(self, state_dict, strict: bool = True,
                        assign: bool = False) -> IncompatibleKeys:
        """Copy values from ``state_dict`` into the Parameters and buffers, in place.

        With ``strict=True`` the keys must match exactly; ``assign=True`` puts the
        checkpoint's tensors in place of the module's (keeping ``requires_grad``). Every
        key, shape and value is checked before anything is copied: on error nothing changes.
        Each module's ``_load_from_state_dict`` does its part (PyTorch's protocol).
        Returns ``(missing_keys, unexpected_keys)``.

        Example:
            >>> import unigrad as ug
            >>> a, b = ug.nn.Dense(2, 1), ug.nn.Dense(2, 1)
            >>> b.load_state_dict(a.state_dict())
            <All keys matched successfully>
            >>> bool((a.weight == b.weight).all())
            True
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata
        missing, unexpected, errors = [], [], []
        incompatible = IncompatibleKeys(missing, unexpected)
        plan = _LoadPlan(assign=bool(assign))
        with plan:
            self._load_recursively(state_dict, "", missing, unexpected, errors, incompatible)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        plan.run()
        return incompatible

    def _load_recursively(self, state_dict: dict, prefix: str, missing: list, unexpected: list,
                          errors: list, incompatible: IncompatibleKeys) -> None:
        metadata = getattr(state_dict, "_metadata", None)
        local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
        self._load_from_state_dict(state_dict, prefix, local_metadata, True, missing,
                                   unexpected, errors)
        for name, cell in self._cells.items():
            if cell is None:
                continue
            child_prefix = f"{prefix}{name}."
            child_state = OrderedDict((k, v) for k, v in state_dict.items()
                                      if k.startswith(child_prefix))
            if metadata is not None:
                child_state._metadata = metadata
            cell._load_recursively(child_state, child_prefix, missing, unexpected, errors,
                                   incompatible)
        for hook in tuple(self._load_state_dict_post_hooks.values()):
            if hook(self, incompatible) is not None:
                raise RuntimeError("load_state_dict post-hook must return None")

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

    def to(self, *args, device=None, dtype=None, non_blocking: bool = False,
           memory_format=None) -> Cell:
        """Move or cast every Parameter and buffer in place: ``to(device)``, ``to(dtype)``,
        ``to(device, dtype)``, ``to(tensor)`` (its device and dtype); ``dtype`` applies to
        floating-point tensors only.

        Example:
            >>> import unigrad as ug
            >>> ug.nn.Dense(2, 1).to(ug.float64).weight.dtype
            unigrad.float64
        """
        for arg in args:
            if isinstance(arg, Tensor):
                device, dtype = arg.device, arg.dtype
            elif isinstance(arg, (DType, np.dtype)) or arg in _DTYPE_NAMES:
                dtype = arg
            else:
                device = arg
        target_dtype = to_numpy_dtype(dtype) if dtype is not None else None
        target_device = Device(device) if device is not None else None

        def convert(array):
            if target_device is not None:
                array = to_device(array, target_device)
            if target_dtype is not None and array.dtype.kind == "f":
                array = array.astype(target_dtype)
            return array
        self._replace_arrays(convert)
        return self

    def cpu(self) -> Cell:
        """Move every Parameter and buffer to the CPU."""
        return self.to("cpu")

    def cuda(self, device=None) -> Cell:
        """Move every Parameter and buffer to the current CUDA device, or ``device``."""
        if device is None:
            return self.to("cuda")
        return self.to(device if isinstance(device, (str, Device)) else f"cuda:{device}")

    def type(self, dst_type) -> Cell:
        """Cast every Parameter and buffer, integer ones included, to ``dst_type``.

        Example:
            >>> import unigrad as ug
            >>> ug.nn.Linear(2, 1).type(ug.float64).bias.dtype
            unigrad.float64
        """
        target = to_numpy_dtype(dst_type)
        self._replace_arrays(lambda array: array.astype(target, copy=False))
        return self

    def to_empty(self, *, device=None, recurse: bool = True) -> Cell:
        """Give every Parameter and buffer new, uninitialized storage on ``device`` (its
        current one when None); the values must be initialized afterwards.

        Example:
            >>> import unigrad as ug
            >>> ug.nn.Linear(2, 1).to_empty(device="cpu").weight.shape
            (1, 2)
        """
        def empty(array):
            fresh = namespace_of(array).empty_like(array)
            return fresh if device is None else to_device(fresh, Device(device))
        self._replace_arrays(empty, recurse)
        return self

    def share_memory(self) -> Cell:
        """Kept for PyTorch code: NumPy storage needs no moving to shared memory; returns
        self."""
        return self

    def _replace_arrays(self, convert: Callable, recurse: bool = True) -> None:
        """Replace each Parameter's and buffer's array by ``convert(array)`` (gradients of
        changed tensors are dropped)."""
        with no_grad():
            for tensor in list(self.parameters(recurse)) + list(self.buffers(recurse)):
                array = convert(tensor._data)
                if array is not tensor._data:
                    tensor._data = array
                    tensor._grad = None
                    bump_version(tensor)

    def float(self) -> Cell:
        return self.to(dtype=float32)

    def double(self) -> Cell:
        return self.to(dtype=float64)

    def half(self) -> Cell:
        return self.to(dtype=float16)

    # ---------------------------------------------------------- copy and pickle
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_jit_function", None)  # compiled per instance; rebuilt on the next call
        return state

    def __setstate__(self, state: dict) -> None:
        """Restore a pickled or copied module; registries that an older unigrad did not save
        start empty (PyTorch's rule)."""
        self.__dict__.update(state)
        for registry in _HOOK_REGISTRIES:
            self.__dict__.setdefault(registry, OrderedDict())
        self.__dict__.setdefault("_is_full_backward_hook", None)
        self.__dict__.setdefault("_non_persistent", set())

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


def _call_module_hook(hook: Callable, module: Cell, grad_inputs: tuple, grad_outputs: tuple):
    return hook(module, grad_inputs, grad_outputs)


class BackwardHookFunction(Function):
    """Identity on a module's input (or output) tensors; its backward hands the gradients to
    ``on_backward``, which returns the gradients to pass on (PyTorch's node of that name)."""

    @staticmethod
    def forward(ctx, on_backward: Callable, *tensors: Tensor) -> tuple:
        ctx.on_backward = on_backward
        ctx.set_materialize_grads(False)
        outputs = tuple(_alias_of(tensor) for tensor in tensors)
        ctx.mark_non_differentiable(*[out for out, tensor in zip(outputs, tensors)
                                      if not tensor.requires_grad])
        return outputs

    @staticmethod
    def backward(ctx, *grads) -> tuple:
        return (None, *ctx.on_backward(grads))


def _alias_of(tensor: Tensor) -> Tensor:
    alias = _make_tensor(tensor._data)
    alias._vc = shared_counter(tensor)
    return alias


class _BackwardHook:
    """One call's full backward (pre-)hooks: identities on the tensor inputs and outputs whose
    backward passes see ``grad_output`` and then ``grad_input`` (PyTorch's BackwardHook)."""

    def __init__(self, module: Cell, hooks: list, pre_hooks: list):
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.grad_outputs = None
        self.input_count = self.output_count = 0
        self.input_positions = self.output_positions = None

    def _wrap(self, values: tuple, on_backward: Callable) -> tuple[tuple, list | None]:
        positions = [i for i, value in enumerate(values) if isinstance(value, Tensor)]
        tensors = [values[i] for i in positions]
        if not (_local.grad_enabled and any(t.requires_grad for t in tensors)):
            return values, None
        wrapped = list(values)
        for position, tensor in zip(positions, BackwardHookFunction.apply(on_backward, *tensors)):
            wrapped[position] = tensor
        return tuple(wrapped), positions

    def wrap_inputs(self, args: tuple) -> tuple:
        self.input_count = len(args)
        args, self.input_positions = self._wrap(args, self._input_backward)
        return args

    def wrap_outputs(self, result):
        is_tuple = isinstance(result, tuple)
        if not (is_tuple or isinstance(result, Tensor)):
            warnings.warn(f"For backward hooks to be called, module output should be a Tensor "
                          f"or a tuple of Tensors but received {type(result)}", stacklevel=4)
        values = result if is_tuple else (result,)
        self.output_count = len(values)
        values, self.output_positions = self._wrap(values, self._output_backward)
        return values if is_tuple else values[0]

    @staticmethod
    def _packed(positions: list, grads, count: int) -> tuple:
        packed = [None] * count
        for position, grad in zip(positions, grads):
            packed[position] = grad
        return tuple(packed)

    def _output_backward(self, grads: tuple) -> tuple:
        self.grad_outputs = self._packed(self.output_positions, grads, self.output_count)
        for hook in self.pre_hooks:
            replaced = hook(self.module, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(self.grad_outputs):
                raise RuntimeError(f"Backward pre hook returned an invalid number of "
                                   f"grad_output, got {len(replaced)}, but expected "
                                   f"{len(self.grad_outputs)}")
            self.grad_outputs = tuple(replaced)
        grad_outputs = self.grad_outputs
        if self.input_positions is None:
            self._run_hooks_without_inputs()
        return tuple(grad_outputs[i] for i in self.output_positions)

    def _run_hooks_without_inputs(self) -> None:
        warnings.warn("Full backward hook is firing when gradients are computed with respect "
                      "to module outputs since no inputs require gradients.", stacklevel=2)
        grad_inputs = (None,) * self.input_count
        for hook in self.hooks:
            replaced = hook(self.module, grad_inputs, self.grad_outputs)
            if replaced is not None and not (isinstance(replaced, tuple)
                                             and all(g is None for g in replaced)):
                raise RuntimeError("Backward hook for Modules where no input requires gradient "
                                   "should always return None or None for all gradients.")
        self.grad_outputs = None

    def _input_backward(self, grads: tuple) -> tuple:
        if self.grad_outputs is None:
            return grads
        grad_inputs = self._packed(self.input_positions, grads, self.input_count)
        for hook in self.hooks:
            replaced = hook(self.module, grad_inputs, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(grad_inputs):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                   f"got {len(replaced)}, but expected {len(grad_inputs)}")
            grad_inputs = tuple(replaced)
        self.grad_outputs = None
        return tuple(grad_inputs[i] for i in self.input_positions)


def _check_attribute_name(name, kind: str, cell: Cell) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if not name or "." in name:
        raise KeyError(f"{kind} name can't be empty or contain \".\", got: {name!r}")
    if hasattr(type(cell), name):
        raise KeyError(f"attribute '{name}' already exists")


_EXTRA_STATE = "_extra_state"


def _is_unexpected(name: str, own: dict, children: dict) -> bool:
    """Whether the key ``name`` (relative to a module) belongs to neither the module's own
    state nor one of its children."""
    head, dot, _ = name.partition(".")
    return head not in children if dot else head not in own


def _public_hook(hook: Callable) -> Callable:
    """``hook`` marked as registered through the public post-hook API (must return None)."""
    @functools.wraps(hook)
    def public(*args):
        return hook(*args)
    public._from_public_api = True
    return public


def _dropping_module(hook: Callable) -> Callable:
    @functools.wraps(hook)
    def without_module(module, *args):
        return hook(*args)
    return without_module


class _LoadPlan:
    """The copies a ``load_state_dict`` call makes once every module checked out."""

    def __init__(self, assign: bool):
        self.assign = assign
        self.actions: list[Callable] = []

    def __enter__(self) -> _LoadPlan:
        _plans().append(self)
        return self

    def __exit__(self, *exc_info) -> None:
        _plans().pop()

    def run(self) -> None:
        with no_grad():
            for action in self.actions:
                action()


def _plans() -> list:
    """This thread's stack of running ``load_state_dict`` plans."""
    if not hasattr(_loading, "plans"):
        _loading.plans = []
    return _loading.plans


def _current_plan() -> _LoadPlan | None:
    plans = _plans()
    return plans[-1] if plans else None


def _load_action(action: Callable) -> None:
    """Run ``action`` when the current ``load_state_dict`` succeeds (at once outside one)."""
    plan = _current_plan()
    if plan is None:
        with no_grad():
            action()
    else:
        plan.actions.append(action)


def _load_assigns() -> bool:
    plan = _current_plan()
    return plan is not None and plan.assign


def _copy_loaded(target: Tensor, array) -> None:
    target._data[...] = array
    bump_version(target)


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
