"""The optimizer base class: parameter groups, per-parameter state, two calling styles.

An :class:`Optimizer` is used PyTorch-style (``loss.backward(); opt.step()``
reads each parameter's ``.grad``) or MindSpore-style (``opt(grads)`` applies a
tuple of gradients given in ``opt.parameters`` order). Both run the same
update rule, which subclasses define in :meth:`Optimizer._update_group`.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, 2.0]), name="w")
    >>> opt = optim.SGD([w], lr=0.5)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0., 0.], requires_grad=True)
"""

from __future__ import annotations

import numbers
import warnings
from collections import defaultdict
from collections.abc import Callable
from itertools import chain
from typing import Any

import numpy as np

from .. import _state, backend
from ..autograd import enable_grad, no_grad
from ..backend import namespace_of
from ..nn.parameter import Parameter, ParameterTuple, clear_grad
from ..tensor import Tensor, _make_tensor, bump_version

# hyperparameter types compared by value in a compiled step's guard (others by repr)
_PLAIN_VALUES = frozenset({int, float, bool, str, type(None)})

class _Default:
    """A keyword default that remembers it was not passed (to detect ``lr`` + ``learning_rate``)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)


class _Required:
    """The default of an argument that must be given (under one of its spellings)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


def default(value) -> _Default:
    """Mark ``value`` as a keyword's default, so :func:`resolve_alias` can tell it was omitted."""
    return _Default(value)


def resolve_alias(owner: str, name: str, value, alias: str, alias_value):
    """The value of a keyword with two spellings (PyTorch ``lr``, MindSpore ``learning_rate``).

    ``value`` is the primary keyword (a :func:`default` or :data:`required` when
    omitted); ``alias_value`` is None when the alias was not passed.

    Example:
        >>> from unigrad.optim.optimizer import default, resolve_alias
        >>> resolve_alias("SGD", "lr", default(0.001), "learning_rate", 0.1)
        0.1
        >>> resolve_alias("SGD", "lr", 0.5, "learning_rate", 0.1)
        Traceback (most recent call last):
        ...
        TypeError: SGD() got both 'lr' and its alias 'learning_rate'; pass only one of them
    """
    given = not isinstance(value, (_Default, _Required))
    if alias_value is not None:
        if given:
            raise TypeError(f"{owner}() got both '{name}' and its alias '{alias}'; pass only one "
                            "of them")
        return alias_value
    return value.value if isinstance(value, _Default) else value


# ------------------------------------------------------------------ hyper-parameter checks

def _scalar(owner: str, name: str, value):
    """A real number (0-d Tensors and NumPy scalars become Python floats)."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"{owner}: '{name}' must be a number or a 0-d Tensor, got a Tensor "
                             f"of shape {tuple(value.shape)}")
        return float(value.item())
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{owner}: '{name}' must be a real number, got {type(value).__name__}")
    return value if type(value) in (int, float) else float(value)


def check_number(owner: str, name: str, value, message: str | None = None,
                 low: float = 0.0, high: float | None = None):
    """``value`` as a real number in ``[low, high)``; ``message`` (with ``{}``) on violation.

    Example:
        >>> from unigrad.optim.optimizer import check_number
        >>> check_number("SGD", "momentum", 0.9, "Invalid momentum value: {}")
        0.9
        >>> check_number("SGD", "momentum", -1, "Invalid momentum value: {}")
        Traceback (most recent call last):
        ...
        ValueError: Invalid momentum value: -1
    """
    value = _scalar(owner, name, value)
    if not low <= value or (high is not None and not value < high):
        raise ValueError((message or f"Invalid {name} value: {{}}").format(value))
    return value


def check_bool(owner: str, name: str, value) -> bool:
    """``value`` if it is a bool, else a TypeError naming the argument."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{owner}: '{name}' must be a bool, got {type(value).__name__}")
    return bool(value)


def check_lr(owner: str, lr, message: str = "Invalid learning rate: {}"):
    """A learning rate: a number ``>= 0`` or a non-empty per-step schedule (tuple of numbers).

    A list, tuple or 1-D Tensor is MindSpore's dynamic learning rate: step
    ``i`` uses entry ``min(i, len - 1)``; it is stored as a tuple of floats.

    Example:
        >>> from unigrad.optim.optimizer import check_lr
        >>> check_lr("SGD", [0.1, 0.05])
        (0.1, 0.05)
        >>> check_lr("SGD", -0.1)
        Traceback (most recent call last):
        ...
        ValueError: Invalid learning rate: -0.1
    """
    if isinstance(lr, Tensor) and lr.ndim == 1:
        lr = lr.tolist()
    if isinstance(lr, (list, tuple)):
        if len(lr) == 0:
            raise ValueError(f"{owner}: a dynamic learning rate (a list of per-step rates) must "
                             "not be empty")
        return tuple(float(check_number(owner, "lr", v, message))
                     for v in lr)
    if isinstance(lr, Tensor) and lr.ndim > 1:
        raise ValueError(f"{owner}: a Tensor learning rate must be 0-d (a rate) or 1-d (per-step "
                         f"rates), got shape {tuple(lr.shape)}")
    return check_number(owner, "lr", lr, message)


def check_pair(owner: str, name: str, value, what: str = "floats") -> tuple:
    """``value`` as a 2-tuple (from a tuple or list; not a Tensor), else a TypeError.

    Example:
        >>> from unigrad.optim.optimizer import check_pair
        >>> check_pair("Rprop", "etas", [0.5, 1.2])
        (0.5, 1.2)
        >>> check_pair("Rprop", "etas", 0.5)
        Traceback (most recent call last):
        ...
        TypeError: Rprop: 'etas' must be a pair of floats, got 0.5
    """
    if isinstance(value, Tensor) or not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"{owner}: '{name}' must be a pair of {what}, got {value!r}")
    return tuple(value)


def check_betas(owner: str, betas) -> tuple[float, float]:
    """A pair ``(beta1, beta2)`` of numbers in ``[0, 1)`` (PyTorch's messages).

    Example:
        >>> from unigrad.optim.optimizer import check_betas
        >>> check_betas("Adam", [0.9, 0.99])
        (0.9, 0.99)
        >>> check_betas("Adam", (0.9, 1.0))
        Traceback (most recent call last):
        ...
        ValueError: Invalid beta parameter at index 1: 1.0
    """
    betas = check_pair(owner, "betas", betas, "floats (beta1, beta2)")
    return tuple(check_number(owner, f"betas[{i}]", b, f"Invalid beta parameter at index {i}: {{}}",
                              high=1.0) for i, b in enumerate(betas))


def check_flags(owner: str, **flags) -> dict:
    """Check PyTorch's implementation switches, which change nothing in unigrad's results,
    and return them for the optimizer's defaults (PyTorch keeps them in every group).

    ``foreach``/``fused`` (None or a bool) pick PyTorch's kernels and
    ``capturable`` its CUDA-graph support: accepted, same updates.
    ``differentiable=True`` (autograd through the step) is not implemented.

    Example:
        >>> from unigrad.optim.optimizer import check_flags
        >>> check_flags("RMSprop", foreach=True, capturable=False)
        {'foreach': True, 'capturable': False}
        >>> check_flags("RMSprop", differentiable=True)
        Traceback (most recent call last):
        ...
        NotImplementedError: RMSprop: differentiable=True is not supported by unigrad
    """
    for name, value in flags.items():
        if name in ("foreach", "fused"):
            if value is not None:
                check_bool(owner, name, value)
        elif name in ("capturable", "differentiable"):
            check_bool(owner, name, value)
        else:
            raise TypeError(f"check_flags: unknown implementation switch {name!r}")
    if flags.get("differentiable"):
        raise NotImplementedError(f"{owner}: differentiable=True is not supported by unigrad")
    return dict(flags)


def in_pytorch_order(order: str, defaults: dict, flags: dict) -> dict:
    """An optimizer's defaults (hyperparameters and :func:`check_flags`'s switches) with
    the keys in PyTorch's order (``order``: the names, space-separated), so that its param
    groups and ``state_dict()`` list them as PyTorch's do.

    Example:
        >>> from unigrad.optim.optimizer import in_pytorch_order
        >>> in_pytorch_order("lr foreach maximize", {"lr": 0.1, "maximize": False},
        ...                  {"foreach": None})
        {'lr': 0.1, 'foreach': None, 'maximize': False}
    """
    merged = {**defaults, **flags}
    keys = order.split()
    if sorted(keys) != sorted(merged):
        raise ValueError(f"in_pytorch_order: the order names {sorted(keys)}, the defaults "
                         f"are {sorted(merged)}")
    return {key: merged[key] for key in keys}


def step_tensor(value: float = 0.0) -> Tensor:
    """A per-parameter step counter: a 0-d float tensor on the host, as PyTorch keeps it.

    Example:
        >>> from unigrad.optim.optimizer import step_tensor
        >>> step_tensor(3)
        tensor(3.)
    """
    return _make_tensor(np.array(value, dtype=backend.default_float()))


def lr_at(lr, step: int) -> float:
    """The rate a group's ``lr`` gives at ``step`` (a schedule uses entry ``min(step, len-1)``)."""
    if isinstance(lr, (list, tuple)):
        return float(lr[min(step, len(lr) - 1)])
    return float(lr)


def _param_label(param, index: int) -> str:
    name = getattr(param, "name", None)
    return f"'{name}'" if isinstance(name, str) else str(index)


def _copy_value(value):
    """A copy of a state or group value that shares no Tensor storage with the original."""
    if isinstance(value, Tensor):
        return _make_tensor(value.detach().clone()._data)
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        return {k: _copy_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copy_value(v) for v in value)
    return value


class Optimizer:
    """Base class of the optimizers (PyTorch ``optim.Optimizer``, MindSpore ``nn.Optimizer``).

    ``params`` is an iterable of Tensors, of ``(name, Tensor)`` pairs, or of
    dicts (parameter groups ``{'params': [...], 'lr': ..., ...}`` overriding
    any entry of ``defaults``; MindSpore's ``'order_params'`` entry is
    ignored). ``loss_scale`` (MindSpore) divides every gradient before use.

    Attributes: ``param_groups`` (list of dicts), ``state`` (parameter -> dict
    of per-parameter state), ``defaults``, ``parameters`` (all parameters in
    order, a ParameterTuple when they are all Parameters), ``global_step``
    (number of updates so far; indexes a dynamic learning rate).

    Subclasses implement ``_check_hyperparameters(group)`` (validate and
    normalise a group's values in place) and ``_update_group(group, params,
    grads, lr)`` (the update rule, run under ``no_grad``), using the shared
    helpers (``_directed``: maximize and L2 decay; ``_real_views``: complex
    parameters as real pairs; ``_counted``: the step counter; ``_add_ratio``)
    and class attributes (``_tensor_step``, ``_scalar_states``,
    ``_supports_graph``, ``_lr_message``).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> a, b = ug.nn.Parameter(ug.ones(2)), ug.nn.Parameter(ug.ones(3))
        >>> opt = optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
        >>> [g["lr"] for g in opt.param_groups]
        [0.1, 0.5]
        >>> opt([ug.ones(2), ug.ones(3)])
        True
        >>> a.detach(), b.detach()
        (tensor([0.9000, 0.9000]), tensor([0.5000, 0.5000, 0.5000]))
    """

    # a state 'step' saved as a plain number is restored as a 0-d tensor (PyTorch's layout)
    _tensor_step = False
    # the update rule runs inside a traced (ug.jit) step
    _supports_graph = True
    # per-parameter state entries besides 'step' that are 0-d tensors
    _scalar_states: frozenset = frozenset()
    # the message of a negative learning rate (PyTorch's wording differs per optimizer)
    _lr_message = "Invalid learning rate: {}"

    def __init__(self, params, defaults: dict, *, loss_scale: float = 1.0) -> None:
        owner = type(self).__name__
        self.loss_scale = check_number(owner, "loss_scale", loss_scale,
                                       "Invalid loss_scale value: {} (it must be > 0)")
        if self.loss_scale == 0:
            raise ValueError("Invalid loss_scale value: 0 (it must be > 0)")
        checked = dict(defaults)
        self._check_hyperparameters(checked)
        self.defaults = checked
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        self.global_step = 0
        self._opt_called = False
        self._parameters_cache = None
        self._grouped = False
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {type(params).__name__}")
        if isinstance(params, dict):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got a dict; put a single parameter group in "
                            "a list: [{'params': ...}]")
        if isinstance(params, (set, frozenset)):
            raise TypeError(_SET_MESSAGE)
        try:
            groups = list(params)
        except TypeError:
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {type(params).__name__}") from None
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        self._grouped = isinstance(groups[0], dict)
        if not self._grouped:
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    # ----------------------------------------------------------------- groups
    def _check_hyperparameters(self, group: dict) -> None:
        """Validate (and normalise in place) a group's hyper-parameters; subclasses extend."""
        if "lr" in group:
            group["lr"] = check_lr(type(self).__name__, group["lr"], self._lr_message)

    def add_param_group(self, param_group: dict) -> None:
        """Add a parameter group (a dict with ``'params'`` and optional hyper-parameters).

        Missing hyper-parameters take the optimizer's defaults. Everything is
        checked before the group is added.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> opt = optim.SGD([ug.nn.Parameter(ug.ones(2))], lr=0.1)
            >>> opt.add_param_group({"params": [ug.nn.Parameter(ug.ones(1))], "lr": 0.01})
            >>> [g["lr"] for g in opt.param_groups]
            [0.1, 0.01]
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        group = dict(param_group)
        group.pop("order_params", None)  # MindSpore: the order is the order of the groups
        if "params" not in group:
            raise ValueError("a parameter group must have a 'params' entry (the Tensors to "
                             "optimize)")
        params = group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, (set, frozenset)):
            raise TypeError(_SET_MESSAGE)
        else:
            try:
                params = list(params)
            except TypeError:
                raise TypeError("a parameter group's 'params' must be a Tensor or an iterable of "
                                f"Tensors, got {type(params).__name__}") from None
        names = []
        tensors = []
        for item in params:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
                names.append(item[0])
                item = item[1]
            tensors.append(item)
        if names and len(names) != len(tensors):
            raise ValueError("all optimizer params should be with/without names. Some param "
                             "names are missing")
        for param in tensors:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{type(param).__module__}.{type(param).__qualname__}")
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        group["params"] = tensors
        if names:
            group["param_names"] = names
        for name, value in self.defaults.items():
            group.setdefault(name, value)
        self._check_hyperparameters(group)
        ids = [id(p) for p in tensors]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see github.com/pytorch/pytorch/"
                          "issues/40967 for more information", stacklevel=3)
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        for other in self.param_groups:
            if ("param_names" in other) != ("param_names" in group):
                which = "with names" if "param_names" in group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not existing.isdisjoint(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)
        self._parameters_cache = None

    @property
    def parameters(self):
        """All parameters in group order: a ParameterTuple if all are Parameters, else a tuple.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> w = ug.nn.Parameter(ug.ones(2), name="w")
            >>> optim.Momentum([w], learning_rate=0.1, momentum=0.9).parameters
            ParameterTuple('w')
        """
        if self._parameters_cache is None:
            flat = tuple(p for group in self.param_groups for p in group["params"])
            if all(isinstance(p, Parameter) for p in flat):
                try:
                    flat = ParameterTuple(flat)
                except ValueError:  # duplicate names: keep the plain tuple
                    pass
            self._parameters_cache = flat
        return self._parameters_cache

    def get_lr(self) -> float:
        """The learning rate the next update of group 0 uses, as a float (MindSpore).

        With a dynamic learning rate (a list of per-step rates) it is entry
        ``min(global_step, len - 1)``.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> opt = optim.Momentum([ug.nn.Parameter(ug.ones(1))], [0.1, 0.01], 0.9)
            >>> opt.get_lr()
            0.1
            >>> opt([ug.ones(1)])
            True
            >>> opt.get_lr()
            0.01
        """
        return lr_at(self.param_groups[0]["lr"], self.global_step)

    # ---------------------------------------------------------------- updates
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear the ``.grad`` of every parameter: set it to None, or zero it in place.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> w = ug.nn.Parameter(ug.ones(2))
            >>> opt = optim.SGD([w], lr=0.1)
            >>> w.sum().backward()
            >>> opt.zero_grad(set_to_none=False)
            >>> w.grad
            tensor([0., 0.])
            >>> opt.zero_grad()
            >>> w.grad is None
            True
        """
        set_to_none = check_bool(type(self).__name__, "set_to_none", set_to_none)
        trace = _state.local.trace
        for group in self.param_groups:
            for param in group["params"]:
                if trace is None:
                    clear_grad(param, set_to_none)
                else:  # ug.jit: in the trace's view (replayed after each call)
                    trace.clear_grad(param, set_to_none)

    def step(self, closure: Callable[[], Any] | None = None):
        """Update every parameter that has a ``.grad`` (PyTorch); returns the closure's loss.

        ``closure`` (optional) re-evaluates the model and returns the loss; it
        runs with gradient recording enabled before the update.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> w = ug.nn.Parameter(ug.tensor([3.0]))
            >>> opt = optim.SGD([w], lr=0.25)
            >>> def closure():
            ...     opt.zero_grad()
            ...     loss = (w * w).sum()
            ...     loss.backward()
            ...     return loss
            >>> opt.step(closure)
            tensor(9., grad_fn=<SumBackward0>)
            >>> w.tolist()
            [1.5]
        """
        loss = None
        if closure is not None:
            if not callable(closure):
                raise TypeError(f"step(): 'closure' must be callable, got "
                                f"{type(closure).__name__}")
            with enable_grad():
                loss = closure()
        work = []
        index = 0
        trace = _state.local.trace
        for group in self.param_groups:
            pairs = []
            for param in group["params"]:
                # ug.jit: the traced .grad (the trace never writes the parameter itself)
                grad = param._grad if trace is None else trace.grad_of(param)
                if grad is not None:
                    self._check_target(param, index)
                    pairs.append((param, grad))
                index += 1
            work.append((group, pairs))
        self._apply(work)
        return loss

    def __call__(self, gradients) -> bool:
        """Apply ``gradients`` given in ``self.parameters`` order (MindSpore); returns True.

        A None entry skips its parameter. ``.grad`` is neither read nor
        written. Everything is checked before any parameter changes.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> w = ug.nn.Parameter(ug.tensor([1.0, 2.0]), name="w")
            >>> b = ug.nn.Parameter(ug.tensor(0.0), name="b")
            >>> opt = optim.Momentum([w, b], learning_rate=0.1, momentum=0.9)
            >>> opt((ug.tensor([1.0, 1.0]), None))
            True
            >>> w.detach(), b.detach()
            (tensor([0.9000, 1.9000]), tensor(0.))
        """
        return self.construct(gradients)

    def construct(self, gradients) -> bool:
        """MindSpore's name for the update call: ``opt.construct(grads)`` is ``opt(grads)``."""
        owner = type(self).__name__
        params = self.parameters
        if isinstance(gradients, Tensor) or not isinstance(gradients, (tuple, list)):
            raise TypeError(f"For '{owner}', the 'gradients' must be a tuple or list of Tensors "
                            "(one per parameter, in 'optimizer.parameters' order), but got "
                            f"{type(gradients).__name__}")
        if len(gradients) != len(params):
            raise ValueError(f"For '{owner}', the number of gradients ({len(gradients)}) must "
                             f"equal the number of parameters ({len(params)})")
        work = []
        index = 0
        for group in self.param_groups:
            pairs = []
            for param in group["params"]:
                grad = gradients[index]
                if grad is not None:
                    label = _param_label(param, index)
                    if not isinstance(grad, Tensor):
                        raise TypeError(f"For '{owner}', the gradient of parameter {label} must "
                                        f"be a Tensor or None, but got {type(grad).__name__}")
                    if grad._data.shape != param._data.shape:
                        raise ValueError(f"For '{owner}', the gradient of parameter {label} has "
                                         f"shape {tuple(grad.shape)}, but the parameter has "
                                         f"shape {tuple(param.shape)}")
                    self._check_target(param, index)
                    pairs.append((param, grad))
                index += 1
            work.append((group, pairs))
        self._apply(work)
        return True

    def _check_target(self, param: Tensor, index: int) -> None:
        if param._data.dtype.kind not in "fc":
            raise TypeError(f"For '{type(self).__name__}', parameter {_param_label(param, index)} "
                            f"has dtype {param.dtype.name}; only floating-point and complex "
                            "parameters can be optimized")

    def _graph_signature(self) -> tuple:
        """What a compiled step depends on besides tensors: hyperparameters, state present."""
        groups = tuple(tuple((key, value if value.__class__ in _PLAIN_VALUES else repr(value))
                             for key, value in group.items() if key != "params")
                       for group in self.param_groups)
        layout = tuple(tuple(sorted(self.state[p])) if p in self.state else ()
                       for group in self.param_groups for p in group["params"])
        return groups, layout, repr(getattr(self, "_step_index", None))

    @staticmethod
    def _real_pairs(tensor: Tensor) -> Tensor:
        """A complex tensor's memory seen as real (real, imaginary) pairs along a trailing
        axis of 2: PyTorch's optimizers update complex parameters componentwise this way
        (``view_as_real``); in-place updates of the result write into ``tensor``."""
        data = tensor._data
        if _state.local.trace is not None or not data.flags.c_contiguous:
            raise RuntimeError("complex parameters are optimized eagerly and must be "
                               "C-contiguous")
        pairs = data.reshape(-1).view(backend.real_of(data.dtype))  # reshape: 0-d too
        return _make_tensor(pairs.reshape(data.shape + (2,)))

    @staticmethod
    def _new_state(param: Tensor, shape: tuple | None = None) -> Tensor:
        """A zero state buffer shaped like ``param`` (or ``shape``), of its dtype and device,
        concrete even while a step is traced (state outlives the trace: it is read as a
        graph input, and its updates are written back like a parameter's)."""
        data = param._data  # concrete: tracing never replaces a parameter's array
        return _make_tensor(namespace_of(data).zeros(data.shape if shape is None else shape,
                                                     data.dtype))

    def _state_shape(self, param: Tensor, name: str) -> tuple | None:
        """The shape a loaded state tensor ``name`` must have (None: any shape)."""
        return () if name in self._scalar_states else tuple(param.shape)

    def _apply(self, work: list) -> None:
        """Run the update rule on the checked ``(group, [(param, grad), ...])`` list."""
        trace = _state.local.trace
        if trace is not None:  # graph mode: hyperparameters and state layout are baked in
            if not self._supports_graph:
                raise NotImplementedError(f"{type(self).__name__} cannot run inside a traced "
                                          "(ug.jit) step; call it eagerly")
            if any(param._data.dtype.kind == "c" for _, pairs in work for param, _ in pairs):
                raise RuntimeError("complex parameters are optimized eagerly and must be "
                                   "C-contiguous")
            trace.add_guard(self._graph_signature)
        scale = self.loss_scale
        with no_grad():
            for group, pairs in work:
                if not pairs:
                    continue
                params = []
                grads = []
                for param, grad in pairs:
                    if grad._data.dtype != param._data.dtype:
                        grad = grad.to(param.dtype)
                    if scale != 1.0:
                        grad = grad / float(scale)
                    params.append(param)
                    grads.append(grad)
                self._update_group(group, params, grads, lr_at(group["lr"], self.global_step))
        self.global_step += 1
        self._opt_called = True

    @staticmethod
    def _directed(param: Tensor, grad: Tensor, maximize: bool, weight_decay: float) -> Tensor:
        """The gradient the rules use: negated with ``maximize``, plus L2 ``weight_decay``."""
        if maximize:
            grad = -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        return grad

    @staticmethod
    def _decayed(param: Tensor, grad: Tensor, lr: float, weight_decay: float,
                 decoupled: bool) -> Tensor:
        """Apply ``weight_decay``: decoupled (AdamW: shrink ``param`` in place by ``1 - lr *
        weight_decay``) or L2 (add ``weight_decay * param`` to the returned gradient)."""
        if weight_decay != 0:
            if decoupled:
                param.mul_(1.0 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        return grad

    def _real_views(self, param: Tensor, *tensors: Tensor) -> tuple:
        """``(param, *tensors)`` as real pairs when ``param`` is complex (PyTorch's
        ``view_as_real``), else unchanged; ``None`` entries stay ``None``."""
        if param._data.dtype.kind != "c":
            return (param, *tensors)
        return tuple(None if t is None else self._real_pairs(t) for t in (param, *tensors))

    @staticmethod
    def _counted(step_t: Tensor):
        """Add one to a step counter and return the new count: a float, or while a step is
        traced (ug.jit) the counter as a float64 0-d tensor, so the formulas using it are
        traced too, with the eager path's precision."""
        step_t.add_(1.0)
        if _state.local.trace is None:
            return float(step_t.item())
        return step_t.to(backend.float64)

    @staticmethod
    def _add_ratio(target: Tensor, numerator: Tensor, denominator: Tensor, scale) -> None:
        """``target += scale * numerator / denominator`` in place; ``scale`` is a number, or
        a traced 0-d tensor (graph mode)."""
        if isinstance(scale, Tensor):
            target.add_(numerator / denominator * scale)
        else:
            target.addcdiv_(numerator, denominator, value=scale)

    @staticmethod
    def _written(param: Tensor, view: Tensor) -> None:
        """Record an in-place update of ``param`` made through its real view ``view``."""
        if view is not param:
            bump_version(param)

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not define an update rule")

    # ------------------------------------------------------------ state dicts
    def state_dict(self) -> dict:
        """The optimizer's state in PyTorch's layout (a copy sharing no storage).

        ``{'state': {index: {name: Tensor or number}}, 'param_groups': [{...,
        'params': [indices]}]}``; indices count parameters in group order. With
        a dynamic learning rate the update counter is saved as ``'global_step'``.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> opt = optim.SGD([ug.nn.Parameter(ug.ones(2))], lr=0.1, momentum=0.9)
            >>> opt([ug.ones(2)])
            True
            >>> sd = opt.state_dict()
            >>> sd["state"]
            {0: {'momentum_buffer': tensor([1., 1.])}}
            >>> sd["param_groups"][0]["params"], sd["param_groups"][0]["lr"]
            ([0], 0.1)
        """
        mapping: dict[int, int] = {}
        groups = []
        start = 0
        for group in self.param_groups:
            packed = {k: _copy_value(v) for k, v in group.items() if k != "params"}
            for offset, param in enumerate(group["params"], start):
                mapping.setdefault(id(param), offset)
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {}
        for param, entry in self.state.items():
            if id(param) in mapping and entry:
                state[mapping[id(param)]] = {k: _copy_value(v) for k, v in entry.items()}
        result = {"state": dict(sorted(state.items())), "param_groups": groups}
        if any(isinstance(g["lr"], (list, tuple)) for g in self.param_groups):
            result["global_step"] = self.global_step
        return result

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore a :meth:`state_dict` (tensors are copied, cast to each parameter's dtype).

        The structure is checked first (PyTorch's messages); on an error
        nothing changes.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> w = ug.nn.Parameter(ug.ones(2))
            >>> saved = optim.SGD([w], lr=0.1, momentum=0.9)
            >>> saved([ug.ones(2)])
            True
            >>> fresh = optim.SGD([w], lr=0.5, momentum=0.9)
            >>> fresh.load_state_dict(saved.state_dict())
            >>> fresh.param_groups[0]["lr"], fresh.state[w]["momentum_buffer"]
            (0.1, tensor([1., 1.]))
        """
        owner = type(self).__name__
        if not isinstance(state_dict, dict):
            raise TypeError(f"{owner}.load_state_dict: expected a dict, got "
                            f"{type(state_dict).__name__}")
        for key in ("state", "param_groups"):
            if key not in state_dict:
                raise ValueError(f"{owner}.load_state_dict: the state dict has no '{key}' entry")
        saved_groups = state_dict["param_groups"]
        if not isinstance(saved_groups, (list, tuple)) or \
                not all(isinstance(g, dict) and "params" in g for g in saved_groups):
            raise ValueError(f"{owner}.load_state_dict: 'param_groups' must be a list of dicts "
                             "with a 'params' entry each")
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"])
               for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = {}
        for saved_id, param in zip(chain.from_iterable(g["params"] for g in saved_groups),
                                   chain.from_iterable(g["params"] for g in self.param_groups)):
            id_map[_state_key(owner, saved_id)] = param
        saved_state = state_dict["state"]
        if not isinstance(saved_state, dict):
            raise ValueError(f"{owner}.load_state_dict: 'state' must be a dict, got "
                             f"{type(saved_state).__name__}")
        new_state: defaultdict = defaultdict(dict)
        for key, entry in saved_state.items():
            param = id_map.get(_state_key(owner, key))
            if param is None:
                raise ValueError(f"{owner}.load_state_dict: the state has an entry for parameter "
                                 f"{key!r}, which none of the saved parameter groups lists")
            if not isinstance(entry, dict):
                raise ValueError(f"{owner}.load_state_dict: the state of parameter {key!r} must "
                                 f"be a dict, got {type(entry).__name__}")
            new_state[param] = {name: self._load_state_value(param, key, name, value)
                                for name, value in entry.items()}
        new_groups = []
        for group, saved in zip(self.param_groups, saved_groups):
            new_group = {k: _copy_value(v) for k, v in saved.items() if k != "params"}
            new_group.pop("order_params", None)
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            for name, value in self.defaults.items():
                new_group.setdefault(name, value)
            self._check_hyperparameters(new_group)
            new_groups.append(new_group)
        global_step = state_dict.get("global_step", self.global_step)
        if isinstance(global_step, (bool, np.bool_)) or \
                not isinstance(global_step, numbers.Integral) or global_step < 0:
            raise ValueError(f"{owner}.load_state_dict: 'global_step' must be an int >= 0, got "
                             f"{global_step!r}")
        self.state = new_state
        self.param_groups[:] = new_groups
        self.global_step = int(global_step)
        self._parameters_cache = None

    def _load_state_value(self, param: Tensor, key, name: str, value):
        """A copy of one loaded state entry: arrays become Tensors of the parameter's dtype."""
        if isinstance(value, np.ndarray):
            value = Tensor(value)
        if ((name == "step" and self._tensor_step) or name in self._scalar_states) and \
                isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
            return step_tensor(float(value))  # a JSON-restored step count or scalar
        if not isinstance(value, Tensor):
            return _copy_value(value)
        if name == "step":
            if value.numel() != 1:
                raise ValueError(f"{type(self).__name__}.load_state_dict: state 'step' of "
                                 f"parameter {key!r} must hold one number, got shape "
                                 f"{tuple(value.shape)}")
            return _copy_value(value)
        expected = self._state_shape(param, name)
        if expected is not None and tuple(value.shape) != expected:
            wanted = (f"the parameter has shape {expected}" if expected == tuple(param.shape)
                      else f"shape {expected} was expected")
            raise ValueError(f"{type(self).__name__}.load_state_dict: state '{name}' of "
                             f"parameter {key!r} has shape {tuple(value.shape)}, but {wanted}")
        copied = _copy_value(value)
        if param._data.dtype.kind == "f" and copied._data.dtype != param._data.dtype:
            copied = _make_tensor(copied.to(param.dtype)._data)
        if copied.device != param.device:  # state lives with its parameter (PyTorch's policy)
            copied = _make_tensor(copied.to(param.device)._data)
        return copied

    # ---------------------------------------------------------------- display
    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_parameters_cache"] = None
        return state


_SET_MESSAGE = ("optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead.")


def _state_key(owner: str, key) -> int:
    """A parameter index of a state dict (JSON turns int keys into strings)."""
    if isinstance(key, str) and key.lstrip("-").isdigit():
        return int(key)
    if isinstance(key, (bool, np.bool_)) or not isinstance(key, numbers.Integral):
        raise ValueError(f"{owner}.load_state_dict: parameter ids must be ints, got {key!r}")
    return int(key)
