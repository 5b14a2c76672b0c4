"""TensorFlow-style gradients: ``gradients`` (``tf.gradients``) and ``GradientTape``.

Both run on the same tape engine as every other transform:

- :func:`gradients` follows ``tf.gradients`` in a graph: ``ys`` were already
  computed from ``xs``; the result is a list with one entry per ``x``, each
  the sum over ``ys`` of ``dy/dx`` (``None`` for an unconnected ``x``).
- :class:`GradientTape` follows the eager ``tf.GradientTape``: tensors it
  watches record their operations while it is recording, and ``gradient``
  returns gradients with the structure of ``sources``. A recording tape
  counts as an enclosing transform, so gradients computed inside it (by an
  inner tape, :func:`gradients` or ``ug.grad``) stay differentiable and tapes
  nest to any order.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor(3.0)
    >>> with ug.GradientTape() as outer:
    ...     outer.watch(x)
    ...     with ug.GradientTape() as inner:
    ...         inner.watch(x)
    ...         y = x ** 3
    ...     dy_dx = inner.gradient(y, x)
    >>> dy_dx.item(), outer.gradient(dy_dx, x).item()
    (27.0, 18.0)
"""

from __future__ import annotations

import contextlib
import enum
import threading
import warnings
from collections.abc import Iterable, Iterator

from .. import _state
from ..autograd.recording import Recorder, active_graph, differentiable_form
from ..backend import namespace_of
from ..tensor import Tensor, _make_tensor
from ._core import one_hot, outer_is_recording, pullback, zeros_of
from .tree import tree_flatten, tree_unflatten
from .vectorize import vmap

__all__ = ["gradients", "GradientTape", "UnconnectedGradients"]

_local = _state.local

_SINGLE_USE_ERROR = ("A non-persistent GradientTape can only be used to compute one set of "
                     "gradients (or jacobians)")
_REENTER_ERROR = ("Tape is still recording, This can happen if you try to re-enter an "
                  "already-active tape.")
_PERSISTENT_INSIDE_WARNING = (
    "Calling GradientTape.gradient on a persistent tape inside its context is significantly "
    "less efficient than calling it outside the context (it causes the gradient ops to be "
    "recorded on the tape, leading to increased CPU and memory usage). Only call "
    "GradientTape.gradient inside the context if you actually want to trace the gradient in "
    "order to compute higher order derivatives.")
_NO_PFOR_ERROR = ("GradientTape must be created with persistent=True to compute the {kind} with "
                  "eager execution enabled and  with experimental_use_pfor set to False.")


class UnconnectedGradients(enum.Enum):
    """The gradient of a source that has no path to the targets.

    ``NONE`` (``"none"``) gives ``None``; ``ZERO`` (``"zero"``) gives zeros
    shaped like the source. The plain strings are accepted wherever a member is.

    Example:
        >>> import unigrad as ug
        >>> ug.UnconnectedGradients("zero")
        <UnconnectedGradients.ZERO: 'zero'>
        >>> ug.UnconnectedGradients.NONE.value
        'none'
    """

    NONE = "none"
    ZERO = "zero"


def _unconnected_mode(value) -> UnconnectedGradients:
    try:
        return UnconnectedGradients(value)
    except (ValueError, TypeError):
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


def _is_trainable(tensor: Tensor) -> bool:
    """Only floating-point tensors carry gradients (integers are constants)."""
    return tensor._data.dtype.kind in "fc"


def _resolved(source: Tensor, grad: Tensor | None, mode: UnconnectedGradients) -> Tensor | None:
    """``grad``, or what an unconnected source gets under ``mode``."""
    if grad is None and mode is UnconnectedGradients.ZERO:
        return zeros_of(source)
    return grad


# ----------------------------------------------------------------------------- tf.gradients

def _tensor_list(value, name: str) -> list[Tensor]:
    """``value`` (a Tensor, or a list or tuple of Tensors) as a list."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        _check_tensors(value, name)
        return list(value)
    raise TypeError(f"{name} must be a Tensor or a list of Tensors, got {type(value).__name__}")


def _check_tensors(values: Iterable, name: str) -> None:
    for index, item in enumerate(values):
        if not isinstance(item, Tensor):
            raise TypeError(f"{name}[{index}] must be a Tensor, got {type(item).__name__}")


def _grad_ys_list(grad_ys, ys: list[Tensor]) -> list:
    """One seed per ``y`` (None: ones), checked against TensorFlow's count rule."""
    if grad_ys is None:
        return [None] * len(ys)
    items = [grad_ys] if isinstance(grad_ys, Tensor) else grad_ys
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"grad_ys must be a Tensor, a list of Tensors or None, got "
                        f"{type(grad_ys).__name__}")
    if len(items) != len(ys):
        raise ValueError(f"Passed {len(items)} grad_ys for {len(ys)} ys")
    for index, grad_y in enumerate(items):
        if grad_y is not None and not isinstance(grad_y, Tensor):
            raise TypeError(f"grad_ys[{index}] must be a Tensor or None, got "
                            f"{type(grad_y).__name__}")
    return list(items)


def gradients(ys, xs, grad_ys=None, stop_gradients=None,
              unconnected_gradients: UnconnectedGradients | str = "none") -> list:
    """Symbolic-style gradients of the sum of ``ys`` with respect to each of ``xs``
    (TensorFlow's ``tf.gradients``).

    ``ys`` must already have been computed from ``xs`` (the graph is read, not
    consumed: it can be differentiated again).

    Parameters
    ----------
    ys : Tensor or list of Tensor
        The tensors to differentiate; several are summed.
    xs : Tensor or list of Tensor
        The tensors to differentiate with respect to. Integer tensors and
        tensors that do not require grad are constants.
    grad_ys : list of Tensor or None, optional
        One seed per ``y`` (shaped like it); a ``None`` entry means ones.
    stop_gradients : Tensor or list of Tensor, optional
        Tensors held constant: the result is a partial derivative.
    unconnected_gradients : {"none", "zero"} or UnconnectedGradients
        What an ``x`` with no path from ``ys`` gets: ``None`` or zeros.

    Returns
    -------
    list
        ``len(xs)`` entries, ``sum(dy/dx for y in ys)`` for each ``x``. As in a
        TensorFlow graph, the results are themselves differentiable (so
        ``gradients`` of a gradient gives second derivatives), except in
        no-grad mode.

    Raises
    ------
    ValueError
        When ``grad_ys`` and ``ys`` differ in length, or for an unknown
        ``unconnected_gradients``.
    TypeError
        When an argument holds something other than Tensors.

    Example
    -------
    >>> import unigrad as ug
    >>> a = ug.tensor(0.0, requires_grad=True)
    >>> b = 2 * a
    >>> [g.item() for g in ug.gradients(a + b, [a, b])]
    [3.0, 1.0]
    >>> [g.item() for g in ug.gradients(a + b, [a, b], stop_gradients=[a, b])]
    [1.0, 1.0]
    >>> ug.gradients(b, ug.tensor(1.0))
    [None]
    """
    ys_list = _tensor_list(ys, "ys")
    xs_list = _tensor_list(xs, "xs")
    seeds = _grad_ys_list(grad_ys, ys_list)
    stops = [] if stop_gradients is None else _tensor_list(stop_gradients, "stop_gradients")
    mode = _unconnected_mode(unconnected_gradients)
    graph = active_graph()
    if graph is not None:  # inside a graph (tf.function, TF1): every tensor is differentiable
        for x in xs_list:
            graph.engine_tensor(x)
        grads = graph.pullback(ys_list, seeds, xs_list, create_graph=_local.grad_enabled,
                               stop=stops or None)
        return [_resolved(x, grad, mode) for x, grad in zip(xs_list, grads)]
    # a tensor that does not require grad is differentiable when a recording tape watches it
    engines = [differentiable_form(x) if _is_trainable(x) else None for x in xs_list]
    targets = [engine for engine in engines if engine is not None]
    stops = [_differentiable_or_itself(stop) for stop in stops]
    # A TensorFlow graph's gradients are graph tensors too: differentiable (by an enclosing
    # transform or tape, or by gradients itself) whenever grad mode is on.
    create_graph = _local.grad_enabled and bool(targets)
    grads = pullback(ys_list, seeds, targets, create_graph=create_graph, retain_graph=True,
                     unconnected_as_none=True, stop=stops or None)
    by_target = {id(target): grad for target, grad in zip(targets, grads)}
    return [_resolved(x, None if engine is None else by_target.get(id(engine)), mode)
            for x, engine in zip(xs_list, engines)]


def _differentiable_or_itself(tensor: Tensor) -> Tensor:
    engine = differentiable_form(tensor)
    return tensor if engine is None else engine


# ----------------------------------------------------------------------------- tf.GradientTape

class _ThreadTapes(threading.local):
    def __init__(self):
        self.recording: list[GradientTape] = []  # oldest first (they restore grad mode)


_tapes = _ThreadTapes()


def _watchable(value) -> list[Tensor]:
    """The tensors in ``value`` (a Tensor or a nested structure of them)."""
    leaves = [None] if value is None else tree_flatten(value)[0]
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise ValueError(f"Passed in object {leaf} of type {type(leaf).__name__!r}, not "
                             f"tf.Tensor or tf.Variable or ExtensionType.")
    return leaves


def _flatten_keeping_none(value) -> list:
    """``value``'s leaves, with ``None`` entries of lists and tuples kept as leaves."""
    if value is None:
        return [None]
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return [leaf for item in value for leaf in _flatten_keeping_none(item)]
    return tree_flatten(value)[0]


def _output_gradient_list(output_gradients, count: int) -> list:
    if output_gradients is None:
        return [None] * count
    items = _flatten_keeping_none(output_gradients)
    if len(items) != count:
        raise ValueError(f"output_gradients must hold one entry per target: got {len(items)} "
                         f"for {count} target(s)")
    for index, item in enumerate(items):
        if item is not None and not isinstance(item, Tensor):
            raise TypeError(f"output_gradients[{index}] must be a Tensor or None, got "
                            f"{type(item).__name__}")
    return items


def _batch_one_hot(like: Tensor, row_index: int) -> Tensor:
    """Ones at element ``row_index`` of every batch row of ``like``, zeros elsewhere."""
    data = like._data
    basis = namespace_of(data).zeros((data.shape[0], data.size // data.shape[0]),
                                     dtype=data.dtype)
    basis[:, row_index] = 1
    return _make_tensor(basis.reshape(data.shape))


def _identity_rows(like: Tensor) -> Tensor:
    """Every one-hot tensor of ``like``'s shape, stacked: the identity, reshaped."""
    data = like._data
    size = int(data.size)
    return _make_tensor(namespace_of(data).eye(size, dtype=data.dtype).reshape(
        (size,) + tuple(data.shape)))


def _batch_identity_rows(like: Tensor) -> Tensor:
    """:func:`_batch_one_hot` for every row index, stacked first."""
    data = like._data
    batch, row_size = data.shape[0], data.size // data.shape[0]
    xp = namespace_of(data)
    eye = xp.eye(row_size, dtype=data.dtype)[:, None, :]
    rows = xp.broadcast_to(eye, (row_size, batch, row_size))
    return _make_tensor(xp.ascontiguousarray(rows).reshape((row_size,) + tuple(data.shape)))


def _stacked(rows: list, source: Tensor, axis: int) -> Tensor:
    """Stack per-row gradients (None rows are zeros) along a new ``axis``."""
    from ..ops.shape import stack
    return stack([zeros_of(source) if row is None else row for row in rows], axis=axis)


def _shape_text(tensor: Tensor) -> str:
    return str(tuple(tensor.shape))


class GradientTape:
    """Records operations on watched tensors to differentiate them (``tf.GradientTape``).

    Use it as a context manager. While it is recording, every watched tensor
    (see :meth:`watch`) and every tensor that requires grad (unless
    ``watch_accessed_variables=False``) records its operations; afterwards
    :meth:`gradient`, :meth:`jacobian` and :meth:`batch_jacobian` differentiate
    them. A non-persistent tape computes one set of gradients; a persistent
    one any number. Gradients computed while an enclosing tape records are
    differentiable by it, so tapes nest for higher derivatives.

    Parameters
    ----------
    persistent : bool
        Allow several calls of ``gradient``/``jacobian``/``batch_jacobian``.
    watch_accessed_variables : bool
        Watch every tensor that requires grad (TensorFlow's trainable
        variables) automatically; with False only :meth:`watch` counts.

    Example
    -------
    >>> import unigrad as ug
    >>> x = ug.tensor(3.0)
    >>> with ug.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> tape.gradient(y, x)
    tensor(6.)
    >>> x.requires_grad
    False
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = bool(persistent)
        self._watch_accessed_variables = bool(watch_accessed_variables)
        self._recorder = Recorder(watch_accessed_variables=self._watch_accessed_variables)
        self._recording = False
        self._usable = False  # entered, and not yet used up (non-persistent)
        self._used_up = False
        self._previous_grad_mode = True

    def __repr__(self) -> str:
        return (f"GradientTape(persistent={self._persistent}, "
                f"watch_accessed_variables={self._watch_accessed_variables})")

    # ------------------------------------------------------------------ recording
    def __enter__(self) -> GradientTape:
        if self._recording:
            raise ValueError(_REENTER_ERROR)
        self._push()
        return self

    def __exit__(self, *exc) -> bool:
        if self._recording:
            self._pop()
        return False

    def _push(self) -> None:
        if self._used_up:  # a used non-persistent tape starts afresh, as TensorFlow's does
            self._recorder.clear()
            self._used_up = False
        self._usable = True
        self._recording = True
        self._previous_grad_mode = _local.grad_enabled
        _local.grad_enabled = True
        _local.transform_depth += 1
        _tapes.recording.append(self)
        self._recorder.start()

    def _pop(self) -> None:
        self._recorder.stop()
        recording = _tapes.recording
        index = next(i for i, tape in enumerate(recording) if tape is self)
        del recording[index]
        if index < len(recording):  # a tape entered later still records: it restores grad mode
            recording[index]._previous_grad_mode = self._previous_grad_mode
        else:
            _local.grad_enabled = self._previous_grad_mode
        _local.transform_depth -= 1
        self._recording = False

    def watch(self, tensor) -> None:
        """Record operations on ``tensor`` (a Tensor or a nested structure of Tensors).

        A tensor that does not require grad requires it while this tape
        records, and no longer once it stops. Integer tensors are accepted with
        a warning; their gradients are None.

        Raises
        ------
        ValueError
            When ``tensor`` holds something other than Tensors.

        Example
        -------
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0, 2.0])
        >>> with ug.GradientTape() as tape:
        ...     tape.watch({"x": x})
        ...     y = (x ** 2).sum()
        >>> tape.gradient(y, {"x": x})
        {'x': tensor([2., 4.])}
        """
        for item in _watchable(tensor):
            if not _is_trainable(item):
                warnings.warn(f"The dtype of the watched tensor must be floating (e.g. "
                              f"tf.float32), got {item.dtype!r}", UserWarning, stacklevel=2)
                continue
            self._recorder.watch(item)

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Pause this tape: operations inside the block are not recorded on it (other tapes
        go on recording).

        Raises
        ------
        RuntimeError
            When the tape is not recording.

        Example
        -------
        >>> import unigrad as ug
        >>> x = ug.tensor(4.0)
        >>> with ug.GradientTape() as tape:
        ...     tape.watch(x)
        ...     with tape.stop_recording():
        ...         y = x ** 2
        >>> print(tape.gradient(y, x))
        None
        """
        if not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._recorder.stop()
        try:
            yield
        finally:
            if self._recording:
                self._recorder.start()

    def reset(self) -> None:
        """Forget everything recorded so far, as if the tape were exited and re-entered
        (only while recording, as in TensorFlow).

        Watched tensors and recorded operations are forgotten and a
        non-persistent tape may compute gradients again.

        Raises
        ------
        ValueError
            When the tape is not recording.

        Example
        -------
        >>> import unigrad as ug
        >>> x = ug.tensor(2.0)
        >>> with ug.GradientTape() as tape:
        ...     tape.watch(x)
        ...     tape.reset()
        ...     y = x * x
        >>> print(tape.gradient(y, x))
        None
        """
        if not self._recording:
            raise ValueError("Tape is not recording.")
        self._recorder.clear()
        self._used_up = False
        self._usable = True

    def watched_variables(self) -> tuple:
        """The variables this tape watches (read while it recorded, or passed to
        :meth:`watch`), in the order it first watched them; watched tensors that are
        not variables are left out.

        Example
        -------
        >>> import unigrad as ug
        >>> w = ug.tensor(1.0, requires_grad=True)
        >>> x = ug.tensor(2.0)
        >>> with ug.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = w * x
        >>> tape.watched_variables() == (w,)
        True
        """
        return tuple(tensor for tensor in self._recorder.watched_order
                     if self._is_variable(tensor))

    @staticmethod
    def _is_variable(tensor: Tensor) -> bool:
        """Whether ``tensor`` counts as a variable: a leaf that requires grad."""
        return tensor._requires_grad and tensor._grad_fn is None

    # ------------------------------------------------------------------ differentiating
    def _check_usable(self) -> None:
        if not self._usable:
            raise RuntimeError(_SINGLE_USE_ERROR)

    def _begin_use(self, warn: bool) -> None:
        """A non-persistent tape stops recording once it is used."""
        if not self._recording:
            return
        if not self._persistent:
            self._pop()
        elif warn:
            warnings.warn(_PERSISTENT_INSIDE_WARNING, UserWarning, stacklevel=3)

    def _end_use(self) -> None:
        if not self._persistent:
            self._usable = False
            self._used_up = True

    def _pull(self, targets: list[Tensor], cotangents: list, sources: list[Tensor]) -> list:
        """Gradient of ``sum(<target, cotangent>)`` for each source through what this tape
        recorded (None: unwatched or unconnected)."""
        create_graph = outer_is_recording() or any(
            c is not None and c._requires_grad for c in cotangents)
        return self._recorder.pullback(targets, cotangents, sources, create_graph=create_graph)

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE):
        """Gradients of ``target`` with respect to ``sources``.

        Parameters
        ----------
        target : Tensor or nested structure of Tensor
            Several targets are summed; a non-scalar target is summed too.
        sources : Tensor or nested structure of Tensor
            The result has this structure (a dict in gives a dict out).
        output_gradients : list of Tensor or None, optional
            One seed per flattened target (shaped like it); None entries mean ones.
        unconnected_gradients : {"none", "zero"} or UnconnectedGradients
            What an unwatched or unconnected source gets.

        Raises
        ------
        RuntimeError
            When a non-persistent tape was already used.
        ValueError
            For an unknown ``unconnected_gradients``.

        Example
        -------
        >>> import unigrad as ug
        >>> w = ug.tensor([1.0, 2.0], requires_grad=True)
        >>> b = ug.tensor(0.5, requires_grad=True)
        >>> with ug.GradientTape() as tape:
        ...     loss = (w * w).sum() + b
        >>> grads = tape.gradient(loss, {"w": w, "b": b})
        >>> grads["w"], grads["b"]
        (tensor([2., 4.]), tensor(1.))
        """
        self._check_usable()
        self._begin_use(warn=True)
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                            "Variables or CompositeTensors to be differentiated, but received "
                            "None.")
        mode = _unconnected_mode(unconnected_gradients)
        targets = tree_flatten(target)[0]
        _check_tensors(targets, "target")
        source_leaves, source_def = tree_flatten(sources)
        _check_tensors(source_leaves, "sources")
        cotangents = _output_gradient_list(output_gradients, len(targets))
        grads = self._pull(targets, cotangents, source_leaves)
        self._end_use()
        return tree_unflatten(source_def, [_resolved(source, grad, mode)
                                           for source, grad in zip(source_leaves, grads)])

    def jacobian(self, target: Tensor, sources,
                 unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
                 parallel_iterations: int | None = None, experimental_use_pfor: bool = True):
        """The Jacobian of ``target`` with respect to each source: ``target.shape +
        source.shape`` each, in the structure of ``sources``.

        The vjp of every target element runs as one batched pass (``vmap`` over
        the rows of the identity, TensorFlow's pfor); ``experimental_use_pfor=False``
        runs one vjp per element (a persistent tape only, as in TensorFlow).
        ``parallel_iterations`` is accepted and ignored. An unconnected source
        gets None (zeros with ``unconnected_gradients="zero"``).

        Raises
        ------
        RuntimeError
            When a non-persistent tape was already used, or is asked for
            ``experimental_use_pfor=False``.

        Example
        -------
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0, 2.0])
        >>> with ug.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.jacobian(y, x)
        tensor([[2., 0.],
                [0., 4.]])
        """
        self._check_usable()
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(_NO_PFOR_ERROR.format(kind="jacobian"))
        self._begin_use(warn=False)
        mode = _unconnected_mode(unconnected_gradients)
        _check_tensors([target], "target")
        source_leaves, source_def = tree_flatten(sources)
        _check_tensors(source_leaves, "sources")
        if experimental_use_pfor and target.numel():
            stacked = vmap(lambda row: tuple(self._pull([target], [row], source_leaves)))(
                _identity_rows(target))
            jacobians = [self._jacobian_block(None if block is None else [block], target,
                                              source, mode, stacked=True)
                         for block, source in zip(stacked, source_leaves)]
        else:
            rows = [self._pull([target], [one_hot(target, i)], source_leaves)
                    for i in range(target.numel())]
            jacobians = [self._jacobian_block([row[k] for row in rows], target, source, mode)
                         for k, source in enumerate(source_leaves)]
        self._end_use()
        return tree_unflatten(source_def, jacobians)

    @staticmethod
    def _jacobian_block(rows: list | None, target: Tensor, source: Tensor,
                        mode: UnconnectedGradients, stacked: bool = False) -> Tensor | None:
        """One source's block from its rows (``stacked``: one tensor of all rows; None for
        an unconnected source)."""
        from ..ops.shape import reshape
        shape = tuple(target.shape) + tuple(source.shape)
        if rows is None or (rows and all(row is None for row in rows)):
            return None if mode is UnconnectedGradients.NONE else zeros_of(source, shape)
        if not rows:
            return zeros_of(source, shape)
        return reshape(rows[0] if stacked else _stacked(rows, source, axis=0), shape)

    def batch_jacobian(
            self, target: Tensor, source: Tensor,
            unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
            parallel_iterations: int | None = None, experimental_use_pfor: bool = True) -> Tensor:
        """Per-example Jacobians: ``target`` ``[b, y...]`` and ``source`` ``[b, x...]`` give
        ``[b, y..., x...]``, assuming ``target[i]`` depends on ``source[i]`` only.

        The vjps of all non-batch target elements run as one batched pass
        (``experimental_use_pfor=False``: one vjp per element, persistent tapes
        only). As in TensorFlow, an unconnected source gives zeros whatever
        ``unconnected_gradients`` says.

        Raises
        ------
        ValueError
            When either has rank below 2 or their first dimensions differ.
        RuntimeError
            When a non-persistent tape was already used, or is asked for
            ``experimental_use_pfor=False``.

        Example
        -------
        >>> import unigrad as ug
        >>> x = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> with ug.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.batch_jacobian(y, x)
        tensor([[[2., 0.],
                 [0., 4.]],
        <BLANKLINE>
                [[6., 0.],
                 [0., 8.]]])
        """
        self._check_usable()
        _check_tensors([target, source], "batch_jacobian arguments")
        if target.ndim < 2 or source.ndim < 2 or target.shape[0] != source.shape[0]:
            raise ValueError(f"Need first dimension of target shape ({_shape_text(target)}) and "
                             f"source shape ({_shape_text(source)}) to match.")
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(_NO_PFOR_ERROR.format(kind="batch_jacobian"))
        self._begin_use(warn=False)
        _unconnected_mode(unconnected_gradients)
        row_size = target.numel() // target.shape[0] if target.shape[0] else 0
        shape = tuple(target.shape) + tuple(source.shape[1:])
        from ..ops.shape import moveaxis, reshape
        if experimental_use_pfor and row_size:
            (rows,) = vmap(lambda row: tuple(self._pull([target], [row], [source])))(
                _batch_identity_rows(target))
            self._end_use()
            if rows is None:
                return zeros_of(target, shape)
            return reshape(moveaxis(rows, 0, 1), shape)
        rows = [self._pull([target], [_batch_one_hot(target, j)], [source])[0]
                for j in range(row_size)]
        self._end_use()
        if all(row is None for row in rows):
            return zeros_of(target, shape)
        return reshape(_stacked(rows, source, axis=1), shape)
