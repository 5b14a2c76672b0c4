"""Primitives, their registry, and :func:`bind`, the single dispatch point.

A primitive is declared once, and the declaration is everything any mode
needs to know about it:

- ``impl(*arrays, **params)``: the computation on backend arrays;
- ``shape(*avals, **params) -> (shape, numpy_dtype)``: the output's abstract value;
- ``vjp(g, out, needs, *inputs, **params) -> tuple``: one cotangent per input
  (``None`` where ``needs[i]`` is false), written with unigrad ops so it is
  itself differentiable;
- ``saves``: what the vjp reads, one spec (see :class:`Saves`): ``"inputs"``,
  ``"output"``, ``"inputs and output"``, ``"nothing"``, or a function of the
  ``needs`` tuple naming the inputs read; inputs it does not read are not kept
  alive (nor version-checked) and reach the rule as abstract values, as in
  PyTorch (``x * 2`` saves only the 2);
- ``jvp(tangents, out, *inputs, **params)``: derived for ``kind="elementwise"``
  (the Jacobian is diagonal, so the jvp is the vjp applied to each broadcast
  tangent), ``kind="linear"`` (the op applied to the tangents) and
  ``kind="bilinear"`` (one term per input); hand-written otherwise;
- ``batch(values, dims, **params) -> (out, out_dim)``: the batching rule
  (:mod:`unigrad.interpreters.batching`), or a family rule from there
  (``over_axes("axes")``, ``over_leading_dims()``); derived for
  ``kind="elementwise"``;
- ``complex_gradient``: how complex tensors are differentiated, by PyTorch's
  convention (a cotangent is the conjugate Wirtinger derivative ``dL/dx + i dL/dy``):
  ``"holomorphic"`` (the op is complex-analytic with real coefficients, so its vjp
  rule applies unchanged at the conjugated inputs, output and params, and its
  jvp rule as written; the default for ``kind="linear"`` and ``"bilinear"``),
  ``"own"`` (the rules handle complex values themselves: ``abs``, ``real``...)
  or None (complex gradients are not defined: differentiating it raises);
- ``autocast``: ``"lower"`` (run in the autocast dtype), ``"float32"`` (run
  half-precision inputs in float32) or None (follow the inputs);
- ``scalar``: the expression of one element, for fusion and code generation:
  a format string over the operands (``"np.tanh({0})"``) or a function
  ``(operands, params, dtype) -> str | None``;
- ``expression``: ``(eqn, operands, namer) -> str | None``, the array expression
  generated graph code uses instead of calling ``impl`` (``a @ b``, ``x.T``);
- ``simplify``: ``rule(eqn, producers) -> Atom | Eqn | None``, the algebraic
  simplifications the op takes part in (``unigrad.graph.passes.simplify``);
- ``ufunc``: the NumPy ufunc name of the same meaning (traced arrays map
  ``np.tanh(tracer)`` and operators to the primitive through it);
- ``impure``: whether it has effects beyond its result (never folded or removed);
- ``is_view`` and ``write_back``: whether the result may share the operand's memory,
  and for a view that can be written through, ``write_back(base, new_view, **params)``:
  the base's new value once the view's region holds ``new_view`` (what an in-place op
  on the view records for its base, as PyTorch's ``CopySlices``);
- ``text_body``: ``(eqn, namer) -> lines``, what a graph's text prints under the eqn
  (the branches and loop bodies of control-flow primitives);
- ``result_memory``: what graph buffer reuse may assume of ``impl``'s result:
  None (it may share an operand's memory), ``"fresh"`` (always a new array) or
  ``"fresh contiguous"`` (a new C-contiguous array).

Tensor method names and in-place variants are declared with the public
function (:func:`unigrad.ops.registry.op`).

Rules see plain backend arrays when the backward pass records nothing, and
Tensors when it does (``create_graph=True``): unigrad ops accept both, and an op
applied only to plain arrays computes directly and returns an array.

Example:
    >>> import unigrad as ug
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> PRIMITIVES["exp"].name
    'exp'
    >>> PRIMITIVES["exp"].saves
    'output'
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .. import _state
from ..abstract import ShapedArray
from ..backend import ndarray
from ..interpreters.eager import bind_eager, bind_first_tensor
from ..tensor import PLAIN_TENSOR_TYPES, Tensor

PRIMITIVES: dict[str, Primitive] = {}

_local = _state.local

_KINDS = ("elementwise", "linear", "bilinear", "other")
_SAVES = ("inputs", "output", "inputs and output", "nothing")
_AUTOCAST = (None, "lower", "float32")
_COMPLEX_GRADIENT = ("holomorphic", "own", None)
_BY_KIND = "by kind"


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


class Primitive:
    """One differentiable (or explicitly non-differentiable) operation: the whole truth about it.

    The fields are described in the module docstring. ``saves_inputs``,
    ``saves_output``, ``saved_for`` and ``saves_lone_first`` are derived from
    ``saves`` for the tape's hot paths.
    """

    __slots__ = ("name", "impl", "shape", "vjp", "jvp", "batch", "kind", "saves",
                 "differentiable", "backward_name", "is_view", "write_back", "autocast", "scalar",
                 "expression",
                 "simplify", "ufunc", "impure", "result_memory", "complex_gradient",
                 "text_body", "saves_inputs", "saves_output",
                 "saved_for", "saves_lone_first", "__weakref__")

    def __init__(self, name: str, impl: Callable, shape: Callable, *,
                 vjp: Callable | None = None, jvp: Callable | None = None,
                 batch: Callable | None = None, kind: str = "other",
                 saves: str | Callable = "inputs", differentiable: bool = True,
                 backward_name: str | None = None, is_view: bool = False,
                 write_back: Callable | None = None,
                 autocast: str | None = None, scalar: str | Callable | None = None,
                 expression: Callable | None = None, simplify: Callable | None = None,
                 ufunc: str | None = None,
                 impure: bool = False, result_memory: str | None = None,
                 complex_gradient: str | None = _BY_KIND, text_body: Callable | None = None,
                 register: bool = True):
        if register and name in PRIMITIVES:
            raise ValueError(f"primitive {name!r} is already registered")
        if kind not in _KINDS:
            raise ValueError(f"kind must be elementwise, linear, bilinear or other, got {kind!r}")
        if not callable(saves) and saves not in _SAVES:
            raise ValueError(f"saves must be one of {_SAVES} or a function of needs, "
                             f"got {saves!r}")
        if result_memory not in (None, "fresh", "fresh contiguous"):
            raise ValueError(f"result_memory must be None, 'fresh' or 'fresh contiguous', got "
                             f"{result_memory!r}")
        if autocast not in _AUTOCAST:
            raise ValueError(f"autocast must be None, 'lower' or 'float32', got {autocast!r}")
        if complex_gradient == _BY_KIND:
            complex_gradient = "holomorphic" if kind in ("linear", "bilinear") else None
        if complex_gradient not in _COMPLEX_GRADIENT:
            raise ValueError(f"complex_gradient must be 'holomorphic', 'own' or None, got "
                             f"{complex_gradient!r}")
        self.name = name
        self.impl = impl
        self.shape = shape
        self.vjp = vjp
        self.kind = kind
        self.saves = saves
        self.differentiable = differentiable
        self.backward_name = backward_name or f"{_camel(name)}Backward0"
        self.is_view = is_view
        self.write_back = write_back
        self.autocast = autocast
        self.scalar = scalar
        self.expression = expression
        self.simplify = simplify
        self.ufunc = ufunc
        self.impure = impure
        self.result_memory = result_memory
        self.complex_gradient = complex_gradient
        self.text_body = text_body
        # the tape's view of ``saves``
        self.saves_inputs = callable(saves) or saves in ("inputs", "inputs and output")
        self.saves_output = saves in ("output", "inputs and output")
        # memoized: it is asked on every recorded op, with a handful of ``needs`` patterns
        self.saved_for = functools.lru_cache(maxsize=32)(saves) if callable(saves) else None
        # whether the first input is saved when it alone needs a gradient (the eager fast path)
        self.saves_lone_first = self.saves_inputs and (self.saved_for is None or
                                                       self.saved_for((True, False))[0])
        if jvp is None and differentiable:
            jvp = _derived_jvp(self, kind)
        self.jvp = jvp
        if batch is None and kind == "elementwise":
            from ..interpreters.batching import leading_dims_batch_rule
            batch = leading_dims_batch_rule(self)  # elementwise: broadcast dims
        elif hasattr(batch, "for_primitive"):  # a family rule: over_axes("axes")...
            batch = batch.for_primitive(self)
        self.batch = batch
        if register:
            PRIMITIVES[name] = self

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"

    def __call__(self, *args, **params):
        return bind(self, *args, **params)

    def complex_vjp(self, g, out, needs, *inputs, **params):
        """The vjp for a complex cotangent ``g`` (the tape calls it instead of ``vjp``).

        A holomorphic op's cotangent is ``g * conj(f'(z))``, and for a rule written
        with real coefficients ``conj(f'(z)) = f'(conj(z))``: the rule runs at the
        conjugated inputs, output and params.

        Example:
            >>> import numpy as np
            >>> from unigrad.ops._primitive import PRIMITIVES
            >>> z = np.array([1 + 2j])
            >>> PRIMITIVES["exp"].complex_vjp(np.array([1 + 0j]), np.exp(z), (True,), z)[0]
            array([-1.13120438-2.47172667j])
        """
        rule = self.complex_gradient
        if rule == "own":
            return self.vjp(g, out, needs, *inputs, **params)
        if rule is None:
            raise RuntimeError(f"the derivative of {self.name} is not implemented for complex "
                               f"tensors")
        return self.vjp(g, _conjugate(out), needs, *[_conjugate(x) for x in inputs],
                        **{key: _conjugate(value) for key, value in params.items()})

    def check_complex_jvp(self, out) -> None:
        """Raise when forward mode would push a complex tangent through an op whose rules
        are real-only."""
        if self.complex_gradient is None and out.dtype.kind == "c":
            raise RuntimeError(f"the derivative of {self.name} is not implemented for complex "
                               f"tensors")

    def scalar_expression(self, operands: list[str], params: dict, dtype) -> str | None:
        """One element of this op on scalar operand expressions (None: not fusable)."""
        scalar = self.scalar
        if scalar is None:
            return None
        if callable(scalar):
            return scalar(operands, params, dtype)
        if params:
            return None
        try:
            return scalar.format(*operands)
        except IndexError:
            return None


_conj_op = None


def _conjugate(value):
    """The complex conjugate of a complex array, Tensor or number; anything else as is."""
    global _conj_op
    if type(value) is complex:
        return value.conjugate()
    dtype = getattr(value, "dtype", None)
    if dtype is None or dtype.kind != "c" or type(value) is ShapedArray:
        return value
    if _conj_op is None:
        from .complex_numbers import conj_physical
        _conj_op = conj_physical
    return _conj_op(value)


def others_need(needs: tuple) -> tuple:
    """``saves`` of multilinear ops (mul, matmul, einsum): the vjp reads operand ``i``
    exactly when some other operand needs a gradient."""
    return tuple(any(need for j, need in enumerate(needs) if j != i) for i in range(len(needs)))


def _derived_jvp(prim: Primitive, kind: str) -> Callable | None:
    if kind == "elementwise":
        def elementwise_jvp(tangents, out, *inputs, **params):
            from .shape import broadcast_to
            total = None
            n = len(inputs)
            for i, t in enumerate(tangents):
                if t is None:
                    continue
                needs = tuple(j == i for j in range(n))
                if tuple(t.shape) != tuple(out.shape):
                    t = broadcast_to(t, tuple(out.shape))
                term = prim.vjp(t, out, needs, *inputs, **params)[i]  # at unconjugated primals
                total = term if total is None else total + term
            return total
        return elementwise_jvp
    if kind == "linear":
        def linear_jvp(tangents, out, *inputs, **params):
            from .creation import zeros_like
            args = [t if t is not None else (zeros_like(x) if _is_array_like(x) else x)
                    for t, x in zip(tangents, inputs)]
            return bind(prim, *args, **params)
        return linear_jvp
    if kind == "bilinear":
        def bilinear_jvp(tangents, out, *inputs, **params):
            total = None
            for i, t in enumerate(tangents):
                if t is None:
                    continue
                args = list(inputs)
                args[i] = t
                term = bind(prim, *args, **params)
                total = term if total is None else total + term
            return total
        return bilinear_jvp
    return None


def _is_array_like(x) -> bool:
    return isinstance(x, (Tensor, ndarray)) or hasattr(x, "__cuda_array_interface__") \
        or hasattr(x, "__unigrad_abstract__")


def bind(prim: Primitive, *args, **params):
    """Apply ``prim`` to ``args`` (Tensors, backend arrays or Python scalars).

    Hands the primitive to the innermost active interpreter
    (:mod:`unigrad.interpreters`): with none active, the eager interpreter
    computes it, and with at least one Tensor argument the result is a Tensor,
    recorded on the tape when grad mode is on and an argument requires grad.
    With only plain arrays it computes directly and returns an array (this is
    how vjp rules run fast when nothing needs recording).

    Example:
        >>> import numpy as np, unigrad as ug
        >>> from unigrad.ops._primitive import bind
        >>> from unigrad.ops.elementwise import add_p
        >>> bind(add_p, ug.tensor([1.0]), ug.tensor([2.0]))
        tensor([3.])
        >>> bind(add_p, np.array([1.0]), np.array([2.0]))
        array([3.])
    """
    if len(args) == 1 and type(args[0]) in PLAIN_TENSOR_TYPES:
        return bind_first_tensor(prim, args[0], params=params)  # checks for interpreters
    interpreter = _local.interpreter
    if interpreter is not None:
        return interpreter.process(prim, args, params)
    return bind_eager(prim, args, params)



def defined_primitives() -> dict[str, Primitive]:
    """All registered primitives by name."""
    return dict(PRIMITIVES)
