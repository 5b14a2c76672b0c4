"""``torch.func``: composable function transforms with PyTorch's signatures.

``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd`` and
``hessian`` map onto unigrad's transforms (:func:`unigrad.grad`,
:func:`unigrad.value_and_grad`, :func:`unigrad.vjp`, :func:`unigrad.jvp`,
:func:`unigrad.jacrev`, :func:`unigrad.jacfwd`, :func:`unigrad.hessian`);
``argnums`` is PyTorch's name for unigrad's ``grad_position``, and
``has_aux`` follows PyTorch (``func`` returns ``(output, aux)``; ``aux`` comes
back as it was returned).

Example:
    >>> import unigrad.compat.torch as torch
    >>> from unigrad.compat.torch.func import grad
    >>> grad(lambda x: torch.sin(x).sum())(torch.tensor([0.0, 1.0]))
    tensor([1.0000, 0.5403])
    >>> grad(grad(lambda x: x ** 3))(torch.tensor(2.0))
    tensor(12.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import unigrad as ug
from unigrad.tensor import Tensor
from unigrad.transforms.tree import tree_flatten

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
           "functional_call", "stack_module_state"]


def _check_callable(func, name: str) -> None:
    if not callable(func):
        raise TypeError(f"{name}: expected func to be callable, got {type(func).__name__}")


def _check_argnums(argnums, name: str) -> None:
    if isinstance(argnums, bool) or not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"{name}: argnums must be int or Tuple[int, ...], got: "
                           f"{type(argnums).__name__}")
    if isinstance(argnums, tuple):
        if not argnums:
            raise RuntimeError(f"{name}: argnums must be non-empty")
        for item in argnums:
            if isinstance(item, bool) or not isinstance(item, int):
                raise RuntimeError(f"{name}: argnums must be int or Tuple[int, ...], got: "
                                   f"{argnums!r}")
        if len(set(argnums)) != len(argnums):
            raise RuntimeError(f"{name}: argnums elements must be unique, got {argnums}")


def _check_positions(argnums, args: tuple, name: str) -> None:
    for position in (argnums if isinstance(argnums, tuple) else (argnums,)):
        if not -len(args) <= position < len(args):
            raise RuntimeError(f"{name}: Got argnums={position}, but only {len(args)} "
                               "positional inputs")


def _scalar_output(func: Callable, has_aux: bool, name: str) -> Callable:
    """``func`` checked the way ``torch.func.grad`` checks it: the (first) output is a
    one-element Tensor, and with ``has_aux`` the result is an ``(output, aux)`` pair."""

    @functools.wraps(func)
    def checked(*args, **kwargs):
        result = func(*args, **kwargs)
        if has_aux:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError(f"{name}(f)(*args): output of function f should be a tuple: "
                                   "(output, aux) if has_aux is True")
            output = result[0]
        else:
            output = result
        if not isinstance(output, Tensor):
            raise RuntimeError(f"{name}(f)(*args): Expected f(*args) to return a Tensor, got "
                               f"{type(output).__name__}")
        if output.ndim != 0:
            raise RuntimeError(f"{name}(f)(*args): Expected f(*args) to return a scalar Tensor, "
                               f"got tensor with {output.ndim} dims. Maybe you wanted to use "
                               "the vjp or jacrev APIs instead?")
        return result

    return checked


def grad_and_value(func: Callable, argnums: int | tuple = 0,
                   has_aux: bool = False) -> Callable:
    """A function returning ``(gradient, value)`` of the scalar ``func`` (``torch.func``).

    With ``has_aux=True`` ``func`` returns ``(output, aux)`` and the result is
    ``(gradient, (output, aux))``.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import grad_and_value
        >>> grad_and_value(lambda x, y: x * y, argnums=(0, 1))(torch.tensor(2.0),
        ...                                                      torch.tensor(3.0))
        ((tensor(3.), tensor(2.)), tensor(6.))
    """
    _check_callable(func, "grad_and_value(f)")
    _check_argnums(argnums, "grad_and_value")
    checked = _scalar_output(func, has_aux, "grad_and_value")

    @functools.wraps(func)
    def wrapper(*args):
        _check_positions(argnums, args, "grad_and_value")
        positions = (argnums % len(args) if isinstance(argnums, int)
                     else tuple(position % len(args) for position in argnums))
        value, gradient = ug.value_and_grad(checked, grad_position=positions,
                                            has_aux=has_aux)(*args)
        if isinstance(argnums, tuple) and not isinstance(gradient, tuple):
            gradient = (gradient,)  # torch.func: a tuple of argnums gives a tuple, (0,) too
        if has_aux:
            output, aux = value
            return gradient, (output, aux)
        return gradient, value

    return wrapper


def grad(func: Callable, argnums: int | tuple = 0, has_aux: bool = False) -> Callable:
    """A function returning the gradient of the scalar ``func`` (``torch.func.grad``).

    ``argnums`` picks the differentiated positional arguments (an int gives
    one gradient, a tuple a tuple). With ``has_aux=True`` ``func`` returns
    ``(output, aux)`` and the result is ``(gradient, aux)``.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import grad
        >>> g, aux = grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(
        ...     torch.tensor([1.0, 2.0]))
        >>> g, aux
        (tensor([2., 4.]), tensor(1.5000))
    """
    _check_callable(func, "grad(f)")
    inner = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args):
        gradient, value = inner(*args)
        return (gradient, value[1]) if has_aux else gradient

    return wrapper


def vjp(func: Callable, *primals, has_aux: bool = False):
    """``(func(*primals), vjp_fn)``, and ``aux`` with ``has_aux`` (``torch.func.vjp``).

    ``vjp_fn(cotangents)`` returns a tuple with one gradient per primal.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import vjp
        >>> out, vjp_fn = vjp(torch.sin, torch.tensor([0.0, 1.0]))
        >>> vjp_fn(torch.ones(2))
        (tensor([1.0000, 0.5403]),)
    """
    _check_callable(func, "vjp(f, *primals)")
    out, vjp_fn, *aux = ug.vjp(func, *primals, has_aux=has_aux)

    def checked_vjp_fn(cotangents):
        _check_cotangents(cotangents, out)
        return vjp_fn(cotangents)

    return (out, checked_vjp_fn, *aux)


def _check_cotangents(cotangents, out) -> None:
    """torch.func's RuntimeErrors for cotangents not shaped like ``func``'s output."""
    leaves, structure = tree_flatten(cotangents)
    out_leaves, out_structure = tree_flatten(out)
    if structure != out_structure:
        raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree "
                           f"structure of outputs to the function. cotangents: {structure}, "
                           f"primal output: {out_structure}")
    for index, (cotangent, output) in enumerate(zip(leaves, out_leaves)):
        if isinstance(cotangent, Tensor) and isinstance(output, Tensor) and \
                tuple(cotangent.shape) != tuple(output.shape):
            raise RuntimeError(f"Mismatch in shape: grad_output[{index}] has a shape of "
                               f"{list(cotangent.shape)} and output[{index}] has a shape of "
                               f"{list(output.shape)}.")


def jvp(func: Callable, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(func(*primals), J @ tangents)`` by forward mode (``torch.func.jvp``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import jvp
        >>> jvp(torch.exp, (torch.tensor([0.0, 1.0]),), (torch.tensor([1.0, 2.0]),))
        (tensor([1.0000, 2.7183]), tensor([1.0000, 5.4366]))
    """
    _check_callable(func, "jvp(f, primals, tangents)")
    for name, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, tuple):
            raise RuntimeError(f"jvp(f, primals, tangents): Expected {name} to be a tuple. E.g. "
                               "it should be valid to call f(*primals).")
    if len(primals) != len(tangents):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the "
                           f"same python structure. For example, if primals is a tuple of 3 "
                           f"tensors, tangents also must be. Got primals with {len(primals)} "
                           f"entries and tangents with {len(tangents)}")
    del strict
    return ug.jvp(func, primals, _tangents_like(primals, tangents), has_aux=has_aux)


def _tangents_like(primals: tuple, tangents: tuple) -> tuple:
    """torch.func.jvp's checks: a tangent has its primal's size; a floating tangent of
    another dtype is accepted (computed in the primal's dtype; PyTorch keeps its own)."""
    checked = []
    for primal, tangent in zip(primals, tangents):
        if isinstance(primal, ug.Tensor) and isinstance(tangent, ug.Tensor):
            if tuple(tangent.shape) != tuple(primal.shape):
                raise RuntimeError("Trying to set a forward gradient that has a different size "
                                   "than that of the original Tensor, this is not supported. "
                                   f"Tensor is of size {list(primal.shape)} while the given "
                                   f"forward gradient is of size {list(tangent.shape)}.")
            if tangent.dtype != primal.dtype and tangent.dtype.is_floating_point \
                    and primal.dtype.is_floating_point:
                tangent = tangent.to(primal.dtype)
        checked.append(tangent)
    return tuple(checked)


def jacrev(func: Callable, argnums: int | tuple = 0, *, has_aux: bool = False,
           chunk_size: int | None = None, _preallocate_and_copy: bool = False) -> Callable:
    """The Jacobian of ``func`` by reverse mode (``torch.func.jacrev``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import jacrev
        >>> jacrev(lambda x: x ** 2)(torch.tensor([1.0, 3.0]))
        tensor([[2., 0.],
                [0., 6.]])
    """
    _check_callable(func, "jacrev(f)")
    _check_argnums(argnums, "jacrev")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")
    return ug.jacrev(func, argnums=argnums, has_aux=has_aux, chunk_size=chunk_size)


def jacfwd(func: Callable, argnums: int | tuple = 0, has_aux: bool = False, *,
           randomness: str = "error") -> Callable:
    """The Jacobian of ``func`` by forward mode (``torch.func.jacfwd``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import jacfwd
        >>> jacfwd(lambda x, y: x * y, argnums=1)(torch.tensor([1.0, 3.0]),
        ...                                        torch.tensor([2.0, 2.0]))
        tensor([[1., 0.],
                [0., 3.]])
    """
    _check_callable(func, "jacfwd(f)")
    _check_argnums(argnums, "jacfwd")
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    return ug.jacfwd(func, argnums=argnums, has_aux=has_aux, randomness=randomness)


def hessian(func: Callable, argnums: int | tuple = 0) -> Callable:
    """The Hessian of the scalar ``func`` (``torch.func.hessian``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import hessian
        >>> hessian(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    _check_callable(func, "hessian(f)")
    _check_argnums(argnums, "hessian")
    return ug.hessian(func, argnums=argnums)


def vmap(func: Callable, in_dims=0, out_dims=0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """``torch.func.vmap``: ``func`` mapped over a batch dimension of its inputs.

    ``in_dims`` is an int, None, or a tuple with one entry (int, None or a
    pytree of them) per positional argument; ``out_dims`` places the batch
    dimension in the outputs. Keyword arguments are not batched.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import vmap
        >>> vmap(torch.dot)(torch.ones(4, 3), torch.ones(4, 3))
        tensor([3., 3., 3., 3.])
    """
    _check_callable(func, "vmap(func)")
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    return ug.vmap(func, in_axes=in_dims, out_axes=out_dims, chunk_size=chunk_size,
                   randomness=randomness)


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """``torch.func.functional_call``: ``module`` run with the given parameters and buffers.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import functional_call
        >>> model = torch.nn.Linear(2, 1)
        >>> functional_call(model, {"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
        ...                 (torch.tensor([[1.0, 2.0]]),))
        tensor([[3.]])
    """
    return ug.func.functional_call(module, parameter_and_buffer_dicts, args, kwargs,
                                   tie_weights=tie_weights, strict=strict)


def stack_module_state(models) -> tuple[dict, dict]:
    """``torch.func.stack_module_state``: the models' parameters and buffers, stacked.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> from unigrad.compat.torch.func import stack_module_state
        >>> params, buffers = stack_module_state([torch.nn.Linear(3, 2) for _ in range(4)])
        >>> tuple(params["bias"].shape)
        (4, 2)
    """
    return ug.func.stack_module_state(models)
