"""``gradcheck`` and ``gradgradcheck``: compare analytical gradients with finite differences.

Slow mode (the default) builds, for every input/output pair, the numerical
Jacobian column by column with central differences ``(f(x+eps)-f(x-eps))/2eps``
and the analytical Jacobian row by row with one-hot vector-Jacobian products,
then compares them element-wise with ``allclose(analytical, numerical, rtol,
atol)``. Fast mode compares the single number ``vᵀJu`` for a random ``v`` and
a random unit ``u``. Matrices are laid out as PyTorch prints them: one row per
input element, one column per output element.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([0.5, 1.5], dtype=ug.float64, requires_grad=True)
    >>> ug.autograd.gradcheck(ug.sin, (x,))
    True
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

import numpy as np

from ..tensor import Tensor, _make_tensor
from .api import grad as autograd_grad
from .grad_mode import enable_grad, no_grad


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` and :func:`gradgradcheck` when a check fails."""


def _as_tuple(inputs) -> tuple:
    return tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def _differentiable_outputs(result) -> list:
    return [out for out in _as_tuple(result)
            if isinstance(out, Tensor) and out._data.dtype.kind in "fc"]


def _check_inputs(inputs: tuple) -> list:
    positions = []
    for index, value in enumerate(inputs):
        if isinstance(value, Tensor) and value._requires_grad:
            if value._data.dtype != np.float64:
                warnings.warn(f"Input #{index} requires gradient and is not a double precision "
                              "floating point or complex. This check will likely fail if all the "
                              "inputs are not of double precision floating point or complex. ",
                              UserWarning, stacklevel=3)
            positions.append(index)
    if not positions:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    return positions


def _evaluate(fn: Callable, inputs: tuple) -> list:
    with no_grad():
        return [_float64_copy(out._data) for out in _differentiable_outputs(fn(*inputs))]


def _float64_copy(array) -> np.ndarray:
    """A float64 NumPy copy of a backend array (the Jacobians are built from these)."""
    from ..backend import to_numpy
    return np.array(to_numpy(array), dtype=np.float64)


def _numerical_columns(fn: Callable, inputs: tuple, position: int, eps: float,
                       directions=None) -> list:
    """Central differences of every output along each direction in the input at ``position``.

    Returns one ``(directions, output_numel)`` matrix per output; the default
    directions are the one-hot vectors, giving one row per input element.
    """
    data = inputs[position]._data
    original = data.copy()
    if directions is None:
        directions = np.eye(data.size, dtype=np.float64)
    rows: list = []
    try:
        for direction in directions:
            step = (direction.reshape(data.shape) * eps).astype(data.dtype)
            data[...] = original + step
            plus = _evaluate(fn, inputs)
            data[...] = original - step
            minus = _evaluate(fn, inputs)
            data[...] = original
            rows.append([((p - m) / (2 * eps)).ravel() for p, m in zip(plus, minus)])
    finally:
        data[...] = original
    count = len(_evaluate(fn, inputs))
    return [np.array([row[k] for row in rows]).reshape(len(directions), -1)
            for k in range(count)]


def _analytical_rows(output: Tensor, inputs: tuple, positions: list, cotangents) -> list:
    """``vᵀJ`` for each cotangent ``v``: one ``(len(cotangents), input_numel)`` matrix per input."""
    blocks = [[] for _ in positions]
    targets = tuple(inputs[p] for p in positions)
    for cotangent in cotangents:
        seed = _make_tensor(cotangent.reshape(output.shape).astype(output._data.dtype))
        grads = autograd_grad(output, targets, grad_outputs=seed, retain_graph=True,
                              allow_unused=True)
        for block, target, value in zip(blocks, targets, grads):
            size = target._data.size
            block.append(np.zeros(size) if value is None else _float64_copy(value._data).ravel())
    return [np.array(block).reshape(len(cotangents), -1) for block in blocks]


def _fail(message: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(message)
    return False


def _mismatch_message(output_index: int, input_index: int, numerical, analytical,
                      forward: bool = False) -> str:
    mode = "computed with forward mode " if forward else ""
    return (f"Jacobian {mode}mismatch for output {output_index:d} with respect to input "
            f"{input_index:d},\nnumerical:{_as_printed(numerical)}\n"
            f"analytical:{_as_printed(analytical)}\n")


def _as_printed(matrix) -> Tensor:
    return _make_tensor(np.asarray(matrix, dtype=np.float64))


def gradcheck(fn: Callable, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False) -> bool:
    """Check the gradients of ``fn`` at ``inputs`` against finite differences.

    Returns True when every Jacobian matches; otherwise raises
    :class:`GradcheckError` (or returns False with ``raise_exception=False``).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[1.0, 2.0]], dtype=ug.float64, requires_grad=True)
        >>> y = ug.tensor([[3.0], [4.0]], dtype=ug.float64, requires_grad=True)
        >>> ug.autograd.gradcheck(lambda a, b: a * b, (x, y))
        True
    """
    inputs = _as_tuple(inputs)
    positions = _check_inputs(inputs)
    outputs = _differentiable_outputs(fn(*inputs))
    if fast_mode:
        return _fast_check(fn, inputs, positions, outputs, eps, atol, rtol, raise_exception)
    for input_index, position in enumerate(positions):
        numerical = _numerical_columns(fn, inputs, position, eps)
        for output_index, output in enumerate(outputs):
            if check_backward_ad:
                if not output._requires_grad:
                    if np.any(numerical[output_index] != 0):
                        return _fail(_mismatch_message(output_index, input_index,
                                                       numerical[output_index],
                                                       np.zeros_like(numerical[output_index])),
                                     raise_exception)
                    continue
                ok = _check_backward(output, inputs, positions, input_index, output_index,
                                     numerical[output_index], atol, rtol, nondet_tol,
                                     raise_exception)
                if not ok:
                    return False
            if check_forward_ad:
                analytical = _forward_columns(fn, inputs, position, output_index)
                if not np.allclose(analytical, numerical[output_index], rtol, atol):
                    return _fail(_mismatch_message(output_index, input_index,
                                                   numerical[output_index], analytical,
                                                   forward=True), raise_exception)
    return True


def _check_backward(output, inputs, positions, input_index, output_index, numerical,
                    atol, rtol, nondet_tol, raise_exception) -> bool:
    one_hots = np.eye(output._data.size, dtype=np.float64)
    rows = _analytical_rows(output, inputs, positions, one_hots)[input_index]
    analytical = rows.T
    if not np.allclose(analytical, numerical, rtol, atol):
        return _fail(_mismatch_message(output_index, input_index, numerical, analytical),
                     raise_exception)
    again = _analytical_rows(output, inputs, positions, one_hots)[input_index].T
    if np.max(np.abs(again - analytical), initial=0.0) > nondet_tol:
        return _fail("Backward is not reentrant, i.e., running backward with same input and "
                     "grad_output multiple times gives different values, although analytical "
                     "gradient matches numerical gradient."
                     f"The tolerance for nondeterminism was {nondet_tol}.", raise_exception)
    return True


def _forward_columns(fn: Callable, inputs: tuple, position: int, output_index: int):
    """The Jacobian from forward mode: one jvp per one-hot input tangent."""
    from . import forward_ad
    target = inputs[position]
    rows = []
    for direction in np.eye(target._data.size, dtype=np.float64):
        tangent = _make_tensor(direction.reshape(target.shape).astype(target._data.dtype))
        with forward_ad.dual_level():
            duals = list(inputs)
            duals[position] = forward_ad.make_dual(target, tangent)
            output = _differentiable_outputs(fn(*duals))[output_index]
            value = forward_ad.unpack_dual(output).tangent
        rows.append(np.zeros(output._data.size) if value is None
                    else _float64_copy(value._data).ravel())
    return np.array(rows).reshape(target._data.size, -1)


def _fast_check(fn, inputs, positions, outputs, eps, atol, rtol, raise_exception) -> bool:
    generator = np.random.default_rng(0)
    for input_index, position in enumerate(positions):
        size = inputs[position]._data.size
        u = generator.standard_normal(size)
        u /= np.linalg.norm(u) or 1.0
        numerical = _numerical_columns(fn, inputs, position, eps, directions=u[None])
        for output_index, output in enumerate(outputs):
            v = generator.standard_normal(output._data.size)
            expected = float(numerical[output_index][0] @ v)
            if not output._requires_grad:
                actual = 0.0
            else:
                rows = _analytical_rows(output, inputs, positions, [v])[input_index]
                actual = float(rows[0] @ u)
            if not np.isclose(actual, expected, rtol, atol):
                return _fail(_mismatch_message(output_index, input_index, expected, actual)
                             + "\nThe above quantities relating the numerical and analytical "
                             "jacobians are computed \nin fast mode.\n", raise_exception)
    return True


def gradgradcheck(fn: Callable, inputs, grad_outputs: Sequence | None = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  raise_exception: bool = True, nondet_tol: float = 0.0,
                  fast_mode: bool = False) -> bool:
    """Check second derivatives: :func:`gradcheck` of ``(x, v) -> vᵀ J_fn(x)``.

    ``grad_outputs`` default to random float64 tensors (fixed seed) shaped like
    the outputs; they take part in the check as extra inputs.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([0.5, 1.5], dtype=ug.float64, requires_grad=True)
        >>> ug.autograd.gradgradcheck(lambda t: t ** 3, (x,))
        True
    """
    inputs = _as_tuple(inputs)
    positions = _check_inputs(inputs)
    outputs = [out for out in _differentiable_outputs(fn(*inputs)) if out._requires_grad]
    if grad_outputs is None:
        generator = np.random.default_rng(0)
        grad_outputs = tuple(
            _make_tensor(generator.uniform(-1.0, 1.0, out.shape).astype(out._data.dtype), True)
            for out in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    count = len(inputs)

    def first_derivative(*values):
        primals, cotangents = values[:count], values[count:]
        with enable_grad():
            results = [out for out in _differentiable_outputs(fn(*primals)) if out._requires_grad]
            targets = tuple(primals[p] for p in positions)
            grads = autograd_grad(results, targets, grad_outputs=cotangents, create_graph=True,
                                  allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol, fast_mode=fast_mode)
