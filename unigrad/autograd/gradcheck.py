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
            if value._data.dtype not in (np.float64, np.complex128):
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
    """A float64 NumPy copy of a backend array (the Jacobians are built from these); a
    complex array as its real parts then its imaginary parts, flattened: complex
    Jacobians are checked as the real Jacobians of (real, imaginary) coordinates, in
    which PyTorch's convention makes a complex vjp the transpose."""
    from ..backend import to_numpy
    values = to_numpy(array)
    if values.dtype.kind == "c":
        return np.concatenate((values.real.ravel(), values.imag.ravel())).astype(np.float64)
    return np.array(values, dtype=np.float64)


def _values(array) -> np.ndarray:
    """A NumPy copy of a backend array, dtype kept."""
    from ..backend import to_numpy
    return np.array(to_numpy(array))


def _real_size(tensor: Tensor) -> int:
    """The number of real coordinates of ``tensor`` (twice its size when complex)."""
    return tensor._data.size * (2 if tensor._data.dtype.kind == "c" else 1)


def _from_real_coordinates(vector: np.ndarray, like: Tensor) -> np.ndarray:
    """The array shaped and typed like ``like`` whose real coordinates are ``vector``."""
    size = like._data.size
    if like._data.dtype.kind == "c":
        vector = vector[:size] + 1j * vector[size:]
    return np.asarray(vector).reshape(like.shape).astype(like._data.dtype)


def _numerical_columns(fn: Callable, inputs: tuple, position: int, eps: float,
                       directions=None) -> list:
    """Central differences of every output along each direction in the input at ``position``.

    Returns one ``(directions, output_numel)`` matrix per output; the default
    directions are the one-hot vectors, giving one row per input element.
    """
    target = inputs[position]
    data = target._data
    original = data.copy()
    if directions is None:
        directions = np.eye(_real_size(target), dtype=np.float64)
    rows: list = []
    try:
        for direction in directions:
            step = _from_real_coordinates(direction * eps, target)
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
        seed = _make_tensor(_from_real_coordinates(np.asarray(cotangent), output))
        grads = autograd_grad(output, targets, grad_outputs=seed, retain_graph=True,
                              allow_unused=True)
        for block, target, value in zip(blocks, targets, grads):
            size = _real_size(target)
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
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Check the gradients of ``fn`` at ``inputs`` against finite differences.

    Returns True when every Jacobian matches; otherwise raises
    :class:`GradcheckError` (or returns False with ``raise_exception=False``).
    As in PyTorch, ``check_undefined_grad`` also checks that zero output gradients
    give zero (or no) input gradients, ``check_batched_grad`` that the vjp under
    ``vmap`` over a batch of cotangents equals a loop, ``check_batched_forward_grad``
    the same for the jvp, and ``check_grad_dtypes`` that each gradient has its input's
    dtype. ``masked`` (sparse inputs) is accepted for compatibility: unigrad has no
    sparse tensors.

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
    extra = [check for check, wanted in (
        (_check_undefined_grad, check_undefined_grad and check_backward_ad),
        (_check_grad_dtypes, check_grad_dtypes and check_backward_ad),
        (_check_batched_grad, check_batched_grad and check_backward_ad),
        (_check_batched_forward_grad, check_batched_forward_grad and check_forward_ad))
        if wanted]
    for check in extra:
        message = check(fn, inputs, positions, atol, rtol)
        if message is not None:
            return _fail(message, raise_exception)
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


def _output_function(fn: Callable, inputs: tuple, positions: list, output_index: int):
    """``fn`` as a function of its differentiable inputs, returning one output."""
    def function(*values):
        arguments = list(inputs)
        for position, value in zip(positions, values):
            arguments[position] = value
        return _differentiable_outputs(fn(*arguments))[output_index]
    return function


def _random_like(value, generator, batch: tuple = ()):
    array = generator.standard_normal(batch + tuple(value.shape))
    if value._data.dtype.kind == "c":
        array = array + 1j * generator.standard_normal(batch + tuple(value.shape))
    return _make_tensor(array.astype(value._data.dtype))


def _check_undefined_grad(fn, inputs, positions, atol, rtol) -> str | None:
    """Zero output gradients (PyTorch's undefined ones) give zero or no input gradients."""
    from .api import grad
    outputs = [out for out in _differentiable_outputs(fn(*inputs)) if out._requires_grad]
    if not outputs:
        return None
    zeros = [_make_tensor(np.zeros(out.shape, dtype=out._data.dtype)) for out in outputs]
    try:
        grads = grad(outputs, [inputs[p] for p in positions], grad_outputs=zeros,
                     allow_unused=True)
    except Exception as error:  # noqa: BLE001 - reported as the check's failure
        return (f"Expected backward function to handle undefined output grads. Please look at "
                f"\"Notes about undefined output gradients\" in \"tools/autograd/"
                f"derivatives.yaml\"; got {type(error).__name__}: {error}")
    for index, value in enumerate(grads):
        if value is not None and np.any(_float64_copy(value._data) != 0):
            return (f"Expected all input grads to be undefined or zero when all output grads "
                    f"are undefined or zero; input {index} got a nonzero gradient.")
    return None


def _check_grad_dtypes(fn, inputs, positions, atol, rtol) -> str | None:
    from .api import grad
    outputs = [out for out in _differentiable_outputs(fn(*inputs)) if out._requires_grad]
    for out in outputs:
        ones = _make_tensor(np.ones(out.shape, dtype=out._data.dtype))
        grads = grad([out], [inputs[p] for p in positions], grad_outputs=[ones],
                     allow_unused=True)
        for position, value in zip(positions, grads):
            if value is not None and value.dtype != inputs[position].dtype:
                return "Gradient has dtype mismatch"
    return None


def _check_batched_grad(fn, inputs, positions, atol, rtol) -> str | None:
    """``vmap`` of the vjp over a batch of two cotangents equals a loop over them."""
    from ..transforms import vjp, vmap
    generator = np.random.default_rng(0)
    values = [inputs[p] for p in positions]
    for output_index, out in enumerate(_differentiable_outputs(fn(*inputs))):
        if not out._requires_grad:
            continue
        _, pull = vjp(_output_function(fn, inputs, positions, output_index), *values)
        batch = _random_like(out, generator, (2,))
        try:
            batched = vmap(pull)(batch)
        except Exception as error:  # noqa: BLE001 - reported as the check's failure
            return (f"While computing batched gradients, got: {type(error).__name__}: "
                    f"{error}")
        looped = [pull(batch[k]) for k in range(2)]
        for input_index in range(len(values)):
            expected = np.stack([_values(looped[k][input_index]._data)
                                 for k in range(2)])
            got = _values(batched[input_index]._data)
            if not np.allclose(got, expected, rtol, atol):
                return (f"For output {output_index} and input {input_index}: batched grad "
                        f"computation failed (vmap of the vjp differs from a loop).")
    return None


def _check_batched_forward_grad(fn, inputs, positions, atol, rtol) -> str | None:
    """``vmap`` of the jvp over a batch of two tangents equals a loop over them."""
    from ..transforms import jvp, vmap
    generator = np.random.default_rng(1)
    values = [inputs[p] for p in positions]
    outputs = _differentiable_outputs(fn(*inputs))
    for output_index in range(len(outputs)):
        function = _output_function(fn, inputs, positions, output_index)
        tangents = [_random_like(value, generator, (2,)) for value in values]

        def push(*directions, function=function):
            return jvp(function, tuple(values), tuple(directions))[1]
        try:
            batched = vmap(push)(*tangents)
        except Exception as error:  # noqa: BLE001 - reported as the check's failure
            return (f"While computing batched forward gradients, got: "
                    f"{type(error).__name__}: {error}")
        looped = np.stack([_values(push(*(t[k] for t in tangents))._data)
                           for k in range(2)])
        if not np.allclose(_values(batched._data), looped, rtol, atol):
            return f"For output {output_index}: batched forward grad computation failed."
    return None


def _check_backward(output, inputs, positions, input_index, output_index, numerical,
                    atol, rtol, nondet_tol, raise_exception) -> bool:
    one_hots = np.eye(_real_size(output), dtype=np.float64)
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
    for direction in np.eye(_real_size(target), dtype=np.float64):
        tangent = _make_tensor(_from_real_coordinates(direction, target))
        with forward_ad.dual_level():
            duals = list(inputs)
            duals[position] = forward_ad.make_dual(target, tangent)
            output = _differentiable_outputs(fn(*duals))[output_index]
            value = forward_ad.unpack_dual(output).tangent
        rows.append(np.zeros(_real_size(output)) if value is None
                    else _float64_copy(value._data).ravel())
    return np.array(rows).reshape(_real_size(target), -1)


def _fast_check(fn, inputs, positions, outputs, eps, atol, rtol, raise_exception) -> bool:
    generator = np.random.default_rng(0)
    for input_index, position in enumerate(positions):
        size = _real_size(inputs[position])
        u = generator.standard_normal(size)
        u /= np.linalg.norm(u) or 1.0
        numerical = _numerical_columns(fn, inputs, position, eps, directions=u[None])
        for output_index, output in enumerate(outputs):
            v = generator.standard_normal(_real_size(output))
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
            _make_tensor(_from_real_coordinates(generator.uniform(-1.0, 1.0, _real_size(out)),
                                                out), True)
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
