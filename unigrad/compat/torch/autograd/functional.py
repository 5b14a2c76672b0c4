"""``torch.autograd.functional``: ``vjp``, ``jvp``, ``jacobian``, ``hessian``, ``hvp``, ``vhp``.

Each takes ``func`` and ``inputs`` (a Tensor or a tuple of Tensors) and
returns results with PyTorch's nesting: a Tensor where PyTorch gives a Tensor
(one input, one output), tuples where the inputs or outputs were tuples.
The derivatives come from unigrad's engine: reverse mode through
:func:`unigrad.autograd.grad`, forward mode through :func:`unigrad.jvp` and
:func:`unigrad.hvp`. Results are detached unless ``create_graph=True``.

Example:
    >>> import unigrad.compat.torch as torch
    >>> from unigrad.compat.torch.autograd.functional import jacobian, hessian
    >>> jacobian(lambda x: x ** 2, torch.tensor([1.0, 3.0]))
    tensor([[2., 0.],
            [0., 6.]])
    >>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
"""

from __future__ import annotations

from collections.abc import Callable

import unigrad as ug
from unigrad.tensor import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

_STRATEGIES = ("forward-mode", "reverse-mode")


# ----------------------------------------------------------------------------- helpers

def _as_tuple(value, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    """``(was_tuple, value as a tuple)``, checking that every element is a Tensor."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for index, item in enumerate(items):
        if not isinstance(item, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                                f"tuple of Tensors but the value at index {index} has type "
                                f"{type(item).__name__}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the given {arg_name} has type "
                            f"{type(item).__name__}.")
    return is_tuple, items


def _prepare_inputs(inputs: tuple, create_graph: bool) -> tuple:
    """Leaves that require grad: the inputs themselves when the result must stay differentiable
    with respect to them, detached aliases otherwise."""
    prepared = []
    for item in inputs:
        if create_graph and item.requires_grad:
            prepared.append(item.view_as(item))
        else:
            prepared.append(item.detach().requires_grad_(True))
    return tuple(prepared)


def _postprocess(value, unpack):
    """Undo the tuple wrapping: ``unpack`` is a flag, or a pair of flags for nested results."""
    if isinstance(unpack, tuple):
        outer, inner = unpack
        if not inner:
            value = tuple(row[0] for row in value)
        else:
            value = tuple(tuple(row) for row in value)
        return value if outer else value[0]
    value = tuple(value)
    return value if unpack else value[0]


def _finish(tensors, create_graph: bool) -> tuple:
    return tuple(t if create_graph else t.detach() for t in tensors)


def _check_v(v, reference: tuple, fn_name: str) -> tuple:
    """``v`` as a tuple with one Tensor shaped like each of ``reference``."""
    _, v = _as_tuple(v, "v", fn_name)
    if len(v) != len(reference):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(reference)} but got "
                           f"{len(v)}.")
    for index, (vector, ref) in enumerate(zip(v, reference)):
        if tuple(vector.shape) != tuple(ref.shape):
            where = "v" if len(v) == 1 else f"Entry {index} in v"
            raise RuntimeError(f"{where} has invalid size: should be {list(ref.shape)} but got "
                               f"{list(vector.shape)}.")
    return v


def _grads(outputs: tuple, inputs: tuple, grad_outputs: tuple | None, create_graph: bool,
           retain_graph: bool | None = None) -> list:
    """``autograd.grad`` over the outputs that require grad; None for unconnected inputs."""
    pairs = [(index, out) for index, out in enumerate(outputs) if out.requires_grad]
    if not pairs:
        return [None] * len(inputs)
    outs = tuple(out for _, out in pairs)
    seeds = None if grad_outputs is None else tuple(grad_outputs[i] for i, _ in pairs)
    return list(ug.autograd.grad(outs, inputs, seeds, retain_graph=retain_graph,
                                 create_graph=create_graph, allow_unused=True))


def _fill_unused(grads: list, like: tuple, strict: bool, message: str) -> tuple:
    filled = []
    for index, (grad, ref) in enumerate(zip(grads, like)):
        if grad is None:
            if strict:
                raise RuntimeError(message.format(index=index))
            grad = ug.zeros_like(ref)
        filled.append(grad)
    return tuple(filled)


def _call(func: Callable, inputs: tuple, fn_name: str) -> tuple[bool, tuple]:
    if not callable(func):
        raise TypeError(f"{fn_name}(): func must be callable, got {type(func).__name__}")
    with ug.enable_grad():
        outputs = func(*inputs)
    return _as_tuple(outputs, "outputs of the user-provided function", fn_name)


def _scalar_output(outputs: tuple, fn_name: str) -> Tensor:
    if len(outputs) != 1:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                           "contain a single element")
    return outputs[0]


# ----------------------------------------------------------------------------- the API

def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(*inputs), v^T J)``: the vector-Jacobian product of ``func`` at ``inputs``.

    ``v`` may be None only when ``func`` returns a single one-element Tensor.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.autograd.functional import vjp
        >>> vjp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.5]))
        (tensor([1., 4.]), tensor([2., 2.]))
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
    inputs = _prepare_inputs(inputs, create_graph)
    is_outputs_tuple, outputs = _call(func, inputs, "vjp")
    if v is not None:
        v = _check_v(v, outputs, "vjp")
    elif len(outputs) != 1 or outputs[0].numel() != 1:
        raise RuntimeError("The vector v can only be None if the user-provided function returns "
                           "a single Tensor with a single element.")
    with ug.enable_grad():
        grads = _grads(outputs, inputs, v, create_graph)
    result = _fill_unused(grads, inputs, strict, "The output of the user-provided function is "
                          "independent of input {index}. This is not allowed in strict mode.")
    return (_postprocess(_finish(outputs, create_graph), is_outputs_tuple),
            _postprocess(_finish(result, create_graph), is_inputs_tuple))


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(*inputs), J v)``: the Jacobian-vector product, computed in forward mode.

    ``v`` may be None only when the input is a single one-element Tensor.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.autograd.functional import jvp
        >>> jvp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.5]))
        (tensor([1., 4.]), tensor([2., 2.]))
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
    if v is not None:
        v = _check_v(v, inputs, "jvp")
    elif len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided "
                           "function is a single Tensor with a single element.")
    else:
        v = (ug.ones_like(inputs[0]),)
    if not callable(func):
        raise TypeError(f"jvp(): func must be callable, got {type(func).__name__}")
    primals = inputs if create_graph else tuple(x.detach() for x in inputs)
    with ug.enable_grad():
        outputs, tangents = ug.jvp(func, primals, v)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
    tangents = tangents if isinstance(tangents, tuple) else (tangents,)
    if strict:
        for index, tangent in enumerate(tangents):
            if tangent is None:
                raise RuntimeError(f"The output of the user-provided function is independent of "
                                   f"input {index}. This is not allowed in strict mode.")
    tangents = tuple(ug.zeros_like(out) if tangent is None else tangent
                     for out, tangent in zip(outputs, tangents))
    return (_postprocess(_finish(outputs, create_graph), is_outputs_tuple),
            _postprocess(_finish(tangents, create_graph), is_outputs_tuple))


def _jacobian_rows(outputs: tuple, inputs: tuple, create_graph: bool, strict: bool,
                   vectorize: bool = False) -> list:
    """``[[d outputs[i] / d inputs[j] for j] for i]``, each shaped ``out.shape + in.shape``.

    ``vectorize``: each output's rows come from one batched vjp (``vmap`` over the
    rows of the identity) instead of one vjp per element.
    """
    if vectorize:
        return [_vectorized_rows(out, inputs, create_graph) for out in outputs]
    table = []
    for i, out in enumerate(outputs):
        rows = [[] for _ in inputs]
        count = out.numel()
        for k in range(count):
            if out.requires_grad:
                seed = ug.zeros(count, dtype=out.dtype)
                seed[k] = 1.0
                grads = ug.autograd.grad((out,), inputs, (seed.reshape(out.shape),),
                                         retain_graph=True, create_graph=create_graph,
                                         allow_unused=True)
            else:
                grads = (None,) * len(inputs)
            for j, grad in enumerate(grads):
                if grad is None:
                    if strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is "
                                           f"independent of input {j}. This is not allowed in "
                                           "strict mode.")
                    grad = ug.zeros_like(inputs[j])
                rows[j].append(grad)
        entry = []
        for j, x in enumerate(inputs):
            if rows[j]:
                block = ug.stack(rows[j]).reshape(*out.shape, *x.shape)
            else:
                block = ug.zeros(*out.shape, *x.shape, dtype=x.dtype)
            entry.append(block if create_graph else block.detach())
        table.append(entry)
    return table


def _vectorized_rows(out, inputs: tuple, create_graph: bool) -> list:
    """One output's Jacobian blocks by a batched vjp (zeros for unused inputs)."""
    count = out.numel()
    if not count or not out.requires_grad:
        return [ug.zeros(*out.shape, *x.shape, dtype=x.dtype) for x in inputs]
    basis = ug.eye(count, dtype=out.dtype).reshape(count, *out.shape)
    rows = ug.vmap(lambda seed: ug.autograd.grad((out,), inputs, (seed,), retain_graph=True,
                                                 create_graph=create_graph,
                                                 allow_unused=True))(basis)
    blocks = []
    for grad, x in zip(rows, inputs):
        block = ug.zeros(*out.shape, *x.shape, dtype=x.dtype) if grad is None else \
            grad.reshape(*out.shape, *x.shape)
        blocks.append(block if create_graph else block.detach())
    return blocks


def _check_strategy(strategy: str, name: str) -> None:
    if strategy not in _STRATEGIES:
        raise ValueError(f'Expected {name} to be either "forward-mode" or "reverse-mode", got '
                         f'{strategy!r}')


def jacobian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``.

    One input and one output give a Tensor shaped ``output.shape + input.shape``;
    a tuple of inputs or of outputs gives a tuple, both give a tuple of tuples
    indexed ``[output][input]``. ``vectorize=True`` computes each output's rows
    in one batched pass (``vmap``) instead of one vjp per element; ``strategy``
    is accepted (the result is the same).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.autograd.functional import jacobian
        >>> jacobian(lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
        (tensor([[3., 0.],
                [0., 4.]]), tensor([[1., 0.],
                [0., 2.]]))
    """
    _check_strategy(strategy, "strategy")
    if not isinstance(vectorize, bool):
        raise TypeError(f"jacobian(): vectorize must be a bool, got {type(vectorize).__name__}")
    if strict and vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                           "`vectorized=True` are not supported together. Please either set "
                           "`strict=False` or `vectorize=False`.")
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    inputs = _prepare_inputs(inputs, create_graph)
    is_outputs_tuple, outputs = _call(func, inputs, "jacobian")
    with ug.enable_grad():
        table = _jacobian_rows(outputs, inputs, create_graph, strict, vectorize)
    return _postprocess(table, (is_outputs_tuple, is_inputs_tuple))


def hessian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of the scalar function ``func`` at ``inputs``.

    One input gives a Tensor shaped ``input.shape + input.shape``; a tuple of
    inputs gives a tuple of tuples indexed ``[i][j]``.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.autograd.functional import hessian
        >>> hessian(lambda x, y: (x * y).sum(), (torch.tensor(1.0), torch.tensor(2.0)))
        ((tensor(0.), tensor(1.)), (tensor(1.), tensor(0.)))
    """
    _check_strategy(outer_jacobian_strategy, "outer_jacobian_strategy")
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    inputs = _prepare_inputs(inputs, create_graph)
    _, outputs = _call(func, inputs, "hessian")
    out = _scalar_output(outputs, "hessian")
    with ug.enable_grad():
        first = _grads((out.reshape(()),), inputs, None, create_graph=True)
        first = _fill_unused(first, inputs, strict, "The output of the user-provided function "
                             "is independent of input {index}. This is not allowed in strict "
                             "mode.")
        table = _jacobian_rows(first, inputs, create_graph, strict, vectorize and not strict)
    return _postprocess(table, (is_inputs_tuple, is_inputs_tuple))


def _second_order(func: Callable, inputs, v, create_graph: bool, strict: bool, fn_name: str):
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    if v is not None:
        v = _check_v(v, inputs, fn_name)
    elif len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided "
                           "function is a single Tensor with a single element.")
    else:
        v = (ug.ones_like(inputs[0]),)
    inputs = _prepare_inputs(inputs, create_graph)
    _, outputs = _call(func, inputs, fn_name)
    out = _scalar_output(outputs, fn_name)
    return is_inputs_tuple, inputs, v, out


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(*inputs), v^T H)``: vector-Hessian product by reverse over reverse mode.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.autograd.functional import vhp
        >>> vhp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        (tensor(9.), tensor([ 6., 12.]))
    """
    is_inputs_tuple, inputs, v, out = _second_order(func, inputs, v, create_graph, strict, "vhp")
    message = ("The output of the user-provided function is independent of input {index}. "
               "This is not allowed in strict mode.")
    with ug.enable_grad():
        first = _grads((out.reshape(()),), inputs, None, create_graph=True)
        first = _fill_unused(first, inputs, strict, message)
        second = _grads(first, inputs, v, create_graph)
    result = _fill_unused(second, inputs, strict, "jacobian of the user-provided function "
                          "with respect to input {index} is independent of the input. This is "
                          "not allowed in strict mode.")
    return (_finish((out,), create_graph)[0],
            _postprocess(_finish(result, create_graph), is_inputs_tuple))


def hvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(*inputs), H v)``: Hessian-vector product by forward over reverse mode.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.autograd.functional import hvp
        >>> hvp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))
        (tensor(9.), tensor([6., 0.]))
    """
    is_inputs_tuple, inputs, v, out = _second_order(func, inputs, v, create_graph, strict, "hvp")
    primals = inputs if create_graph else tuple(x.detach() for x in inputs)

    def scalar(*args):
        return func(*args).reshape(())

    with ug.enable_grad():
        products = ug.hvp(scalar, primals, v)
    products = products if isinstance(products, tuple) else (products,)
    return (_finish((out,), create_graph)[0],
            _postprocess(_finish(products, create_graph), is_inputs_tuple))
