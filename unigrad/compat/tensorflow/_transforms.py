"""TensorFlow's differentiation API over unigrad's: ``gradients``, ``GradientTape``,
``stop_gradient``, ``custom_gradient`` and ``function`` (graph mode via :func:`unigrad.jit`).

Each wraps the engine's transform and hands its fresh results back as
TensorFlow Tensors.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> w = tf.Variable(2.0)
    >>> with tf.GradientTape() as tape:
    ...     loss = w * w
    >>> tape.gradient(loss, w)
    <tf.Tensor: shape=(), dtype=float32, numpy=4.0>
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import unigrad as ug
from unigrad.autograd.recording import Recorder
from unigrad.tensor import Tensor as _UgTensor
from unigrad.transforms import UnconnectedGradients
from unigrad.transforms.tree import tree_leaves

from . import _graph
from ._tensor import Tensor, Variable, as_tf, as_tf_tree
from .tensor_spec import check_signature

__all__ = ["gradients", "hessians", "GradientTape", "recompute_grad", "stop_gradient",
           "custom_gradient", "function", "UnconnectedGradients", "vectorized_map"]


def _leaves(*trees) -> tuple:
    found = []
    for tree in trees:
        if tree is not None:
            found.extend(leaf for leaf in tree_leaves(tree) if isinstance(leaf, _UgTensor))
    return tuple(found)


def gradients(ys, xs, grad_ys=None, name: str = "gradients", gate_gradients: bool = False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE) -> list:
    """``tf.gradients``: for each of ``xs``, the derivative of ``sum(ys)`` (a list).

    ``ys`` must have been computed from ``xs``; ``grad_ys`` holds one seed per
    ``y``. An ``x`` that ``ys`` do not depend on gets None (or zeros with
    ``unconnected_gradients="zero"``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> a = tf.Variable(1.0)
        >>> b = a * 3.0
        >>> tf.gradients([a + b], [a, b])
        [<tf.Tensor: shape=(), dtype=float32, numpy=4.0>,
         <tf.Tensor: shape=(), dtype=float32, numpy=1.0>]
    """
    if _graph.building() is not None:  # a TF1 graph: the gradients are graph tensors
        return _graph_gradients(ys, xs, grad_ys, stop_gradients, unconnected_gradients)
    grads = ug.gradients(ys, xs, grad_ys=grad_ys, stop_gradients=stop_gradients,
                         unconnected_gradients=unconnected_gradients)
    return as_tf_tree(grads, keep=_leaves(ys, xs, grad_ys))


def _as_list(value, name: str) -> list:
    if value is None:
        return []
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    for index, item in enumerate(items):
        if item is not None and not isinstance(item, _UgTensor):
            raise TypeError(f"{name}[{index}] must be a Tensor, got {type(item).__name__}")
    return items


def _graph_gradients(ys, xs, grad_ys, stop_gradients, unconnected_gradients) -> list:
    ys_list, xs_list = _as_list(ys, "ys"), _as_list(xs, "xs")
    seeds = _as_list(grad_ys, "grad_ys") or [None] * len(ys_list)
    if len(seeds) != len(ys_list):
        raise ValueError(f"Passed {len(seeds)} grad_ys for {len(ys_list)} ys")
    mode = UnconnectedGradients(unconnected_gradients)
    grads = _graph.gradients(ys_list, xs_list, seeds, _as_list(stop_gradients, "stop_gradients"))
    if mode is UnconnectedGradients.ZERO:
        from ._array_ops import zeros_like
        grads = [zeros_like(x) if grad is None else grad for x, grad in zip(xs_list, grads)]
    return grads


def hessians(ys, xs, gate_gradients: bool = False, aggregation_method=None,
             name: str = "hessians") -> list:
    """``tf.hessians``: for each of ``xs``, the Hessian of ``sum(ys)`` with respect to it
    (shape ``x.shape + x.shape``; None where ``ys`` do not depend on ``x``). As
    :func:`gradients`, it differentiates a graph (``tf.function``, TF1 code).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> @tf.function
        ... def curvature(x):
        ...     return tf.hessians(tf.reduce_sum(x ** 3), x)[0]
        >>> curvature(tf.constant([1.0, 2.0]))
        <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
        array([[ 6.,  0.],
               [ 0., 12.]], dtype=float32)>
    """
    xs_list = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    result = []
    for x, first in zip(xs_list, gradients(ys, xs_list)):
        if first is None:
            result.append(None)
            continue
        flat = ug.reshape(first, (-1,))
        rows = [gradients(flat[index], x, unconnected_gradients="zero")[0]
                for index in range(flat.shape[0])]
        shape = tuple(x.shape) + tuple(x.shape)
        hessian = ug.reshape(ug.stack(rows), shape) if rows else ug.zeros(shape, dtype=x.dtype)
        result.append(as_tf(hessian))
    return result


class GradientTape(ug.GradientTape):
    """``tf.GradientTape``: records operations to differentiate them.

    Trainable Variables are watched automatically (unless
    ``watch_accessed_variables=False``); constants only through :meth:`watch`.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.gradient(y, x)
        <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
    """

    def watched_variables(self) -> tuple:
        """The Variables this tape watches, in the order they were created (TensorFlow's)."""
        return tuple(sorted(super().watched_variables(), key=lambda variable: variable._serial))

    @staticmethod
    def _is_variable(tensor) -> bool:
        return isinstance(tensor, Variable)

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Gradients of ``target`` with respect to ``sources`` (with their structure)."""
        result = super().gradient(target, sources, output_gradients=output_gradients,
                                  unconnected_gradients=unconnected_gradients)
        return as_tf_tree(result, keep=_leaves(target, sources, output_gradients))

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor: bool = True):
        """The Jacobian of ``target`` with respect to each of ``sources``."""
        result = super().jacobian(target, sources, unconnected_gradients=unconnected_gradients,
                                  parallel_iterations=parallel_iterations,
                                  experimental_use_pfor=experimental_use_pfor)
        return as_tf_tree(result, keep=_leaves(target, sources))

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor: bool = True):
        """The per-example Jacobian of ``target`` with respect to ``source``."""
        result = super().batch_jacobian(target, source,
                                        unconnected_gradients=unconnected_gradients,
                                        parallel_iterations=parallel_iterations,
                                        experimental_use_pfor=experimental_use_pfor)
        return as_tf_tree(result, keep=_leaves(target, source))


def recompute_grad(f: Callable) -> Callable:
    """``tf.recompute_grad``: ``f`` keeping no intermediate activations; its gradient
    recomputes them (unigrad's :func:`unigrad.checkpoint`), within a tape, ``tf.gradients``
    and to any order.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.recompute_grad(lambda x: tf.tanh(x) * x)
        >>> x = tf.Variable(1.0)
        >>> with tf.GradientTape() as tape:
        ...     y = layer(x)
        >>> round(float(tape.gradient(y, x)), 6)
        1.181569
    """
    if not callable(f):
        raise TypeError(f"recompute_grad: f must be callable, got {type(f).__name__}")

    @functools.wraps(f)
    def recomputed(*args, **kwargs):
        return as_tf_tree(ug.checkpoint(f, *args, **kwargs))
    return recomputed


def stop_gradient(input, name: str | None = None) -> Tensor:
    """``tf.stop_gradient``: the same value, through which no gradient flows.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable(2.0)
        >>> with tf.GradientTape() as tape:
        ...     y = w * tf.stop_gradient(w)
        >>> tape.gradient(y, w).numpy()
        np.float32(2.0)
    """
    if not isinstance(input, _UgTensor):
        from ._tensor import constant
        return constant(input)
    result = ug.stop_gradient(input)
    if result is input:
        result = input.detach()
    return as_tf(result)


def custom_gradient(f: Callable | None = None) -> Callable:
    """``tf.custom_gradient``: ``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(dy)`` gives the
    gradient with respect to each ``x`` (and ``variables``, when ``f`` reads some).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> @tf.custom_gradient
        ... def clip_grad(x):
        ...     def grad(dy):
        ...         return tf.clip_by_value(dy, -0.5, 0.5)
        ...     return tf.identity(x), grad
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = clip_grad(x) * 3.0
        >>> tape.gradient(y, x)
        <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """
    if f is None:
        return custom_gradient
    if not callable(f):
        raise TypeError(f"custom_gradient expects a callable, got {type(f).__name__}")
    wrapped = ug.custom_gradient(f)

    @functools.wraps(f)
    def call(*args, **kwargs):
        return as_tf_tree(wrapped(*args, **kwargs), keep=_leaves(args, kwargs))

    return call


def _as_graph(python_function: Callable) -> Callable:
    """``python_function`` running as a TensorFlow graph: every tensor it reads is
    differentiable by ``tf.gradients`` inside it (a recorder of everything)."""

    @functools.wraps(python_function)
    def in_graph(*args, **kwargs):
        with Recorder(records_everything=True):
            return python_function(*args, **kwargs)
    return in_graph


class Function:
    """A ``tf.function``: ``python_function`` compiled by :func:`unigrad.jit`.

    It is traced once per input signature (shapes, dtypes, structure) and
    replayed afterwards; Variables it reads or assigns are inputs and outputs
    of the graph. ``experimental_get_tracing_count()`` counts the traces.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> @tf.function
        ... def f(x):
        ...     return tf.reduce_sum(x * x)
        >>> f(tf.constant([1.0, 2.0]))
        <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
        >>> _ = f(tf.constant([3.0, 4.0])); f.experimental_get_tracing_count()
        1
        >>> _ = f(tf.constant([1.0, 2.0, 3.0])); f.experimental_get_tracing_count()
        2
    """

    def __init__(self, python_function: Callable, input_signature=None,
                 jit_compile: bool | None = None, reduce_retracing: bool = False,
                 autograph: bool = True):
        if not callable(python_function):
            raise TypeError(f"tf.function expects a callable, got "
                            f"{type(python_function).__name__}")
        self.python_function = python_function
        self.input_signature = input_signature
        self._compiled = ug.jit(_as_graph(python_function), autograph=autograph)
        functools.update_wrapper(self, python_function)

    def __call__(self, *args, **kwargs):
        if self.input_signature is not None:
            args = check_signature(self.input_signature, args, self.python_function, kwargs)
            kwargs = {}
        result = self._compiled(*args, **kwargs)
        return as_tf_tree(result, keep=_leaves(args, kwargs))

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def experimental_get_tracing_count(self) -> int:
        """How many times the function has been traced (once per new signature)."""
        return self._compiled.trace_count

    def __repr__(self) -> str:
        return f"<tf.function {getattr(self.python_function, '__name__', 'function')}>"


def function(func: Callable | None = None, input_signature=None, autograph: bool = True,
             jit_compile: bool | None = None, reduce_retracing: bool = False,
             experimental_implements=None, experimental_autograph_options=None,
             experimental_attributes=None, experimental_relax_shapes=None,
             experimental_compile=None, experimental_follow_type_hints=None):
    """``tf.function``: compile ``func`` into a graph (:func:`unigrad.jit`), as a decorator with
    or without arguments. With ``autograph`` (the default) Python ``if``/``while``/``for``
    on tensors become graph control flow (``tf.cond``/``tf.while_loop``); the experimental
    options are accepted and ignored.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> @tf.function(jit_compile=True)
        ... def double(x):
        ...     return x * 2.0
        >>> double(tf.constant(1.5)).numpy()
        np.float32(3.0)
    """
    if func is None:
        return lambda f: Function(f, input_signature, jit_compile, reduce_retracing, autograph)
    return Function(func, input_signature, jit_compile, reduce_retracing, autograph)


def vectorized_map(fn: Callable, elems, fallback_to_while_loop: bool = True, warn: bool = True):
    """``tf.vectorized_map``: ``fn`` applied to every slice of ``elems`` along axis 0, batched.

    ``elems`` is a Tensor or a nested structure of Tensors with one first
    dimension; ``fn`` receives one slice (with the same structure) and the
    results are stacked. It runs as one batched pass (:func:`unigrad.vmap`);
    where an op has no batching rule, ``fallback_to_while_loop`` runs ``fn``
    once per slice instead (with a warning when ``warn``), as TensorFlow does.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.vectorized_map(lambda row: tf.reduce_sum(row * row), tf.constant([[1.0, 2.0],
        ...                                                                      [3.0, 4.0]]))
        <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 5., 25.], dtype=float32)>
    """
    def on_slice(element):
        return fn(as_tf_tree(element))

    try:
        return as_tf_tree(ug.vmap(on_slice)(elems))
    except NotImplementedError as error:
        if not fallback_to_while_loop:
            raise ValueError(f"vectorized_map: {error}") from None
        if warn:
            import warnings
            warnings.warn(f"Using a while_loop for converting {error}", stacklevel=2)
    leaves, treedef = ug.tree_flatten(elems)
    size = int(leaves[0].shape[0])
    results = [fn(as_tf_tree(ug.tree_unflatten(treedef, [leaf[i] for leaf in leaves])))
               for i in range(size)]
    stacked = ug.tree_map(lambda *parts: ug.stack(list(parts)), *results)
    return as_tf_tree(stacked)
