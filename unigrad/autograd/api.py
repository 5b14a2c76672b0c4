"""``backward`` and ``grad``: the two entry points of the tape (PyTorch semantics)."""

from __future__ import annotations

import warnings

from .. import _state
from ..tensor import Tensor, _make_tensor
from .engine import run_backward

_local = _state.local

_CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak.")


def _as_tuple(value, name: str) -> tuple:
    if isinstance(value, Tensor):
        return (value,)
    # PyTorch: a RuntimeError for bad inputs ("all inputs have to be Tensors"), a type error
    # for bad outputs
    error = RuntimeError if name == "inputs" else TypeError
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if not isinstance(item, Tensor):
                raise error(f"{name}[{i}] must be a Tensor, got {type(item).__name__}")
        return tuple(value)
    raise error(f"{name} must be a Tensor or a sequence of Tensors, got {type(value).__name__}")


def _make_seeds(outputs: tuple, grad_outputs, create_graph: bool, name: str) -> list:
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    elif isinstance(grad_outputs, Tensor):
        grad_outputs = (grad_outputs,)
    elif not isinstance(grad_outputs, (list, tuple)):
        raise TypeError(f"{name} must be a Tensor, a sequence of Tensors or None, got "
                        f"{type(grad_outputs).__name__}")
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"{name} should be a sequence of length {len(outputs)}, but got "
                           f"{len(grad_outputs)}")
    seeds = []
    for i, (out, seed) in enumerate(zip(outputs, grad_outputs)):
        if not out._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have "
                               "a grad_fn")
        data = out._data
        if seed is None:
            if data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if data.dtype.kind != "f":
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs "
                                   f"but got {out.dtype}")
            array = _ones_like(data)
        else:
            if isinstance(seed, Tensor):
                array = seed._data
            else:
                raise TypeError(f"{name}[{i}] must be a Tensor or None, got "
                                f"{type(seed).__name__}")
            if array.shape != data.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                                   f"{list(array.shape)} and output[{i}] has a shape of "
                                   f"{list(data.shape)}.")
            if array.dtype != data.dtype:
                array = array.astype(data.dtype)
            if create_graph:
                seeds.append(seed if array is seed._data else _make_tensor(array))
                continue
            array = array.copy()
        seeds.append(_make_tensor(array) if create_graph else array)
    return seeds


def _ones_like(array):
    from ..backend import namespace_of
    return namespace_of(array).ones_like(array)


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs=None) -> None:
    """Accumulate gradients of ``tensors`` into ``.grad`` of graph leaves.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
        >>> ug.autograd.backward((x * x).sum())
        >>> x.grad
        tensor([2., 4.])
    """
    outputs = _as_tuple(tensors, "tensors")
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        inputs = _as_tuple(inputs, "inputs")
        if len(inputs) == 0:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for tensor in inputs:
            if not tensor._requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
    if create_graph:
        warnings.warn(_CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    seeds = _make_seeds(outputs, grad_tensors, create_graph, "grad_tensors")
    captured = run_backward(outputs, seeds, retain_graph=retain_graph, create_graph=create_graph,
                            inputs=inputs, accumulate=True)
    if inputs is not None:
        for tensor, grad in zip(inputs, captured):
            if tensor._grad_fn is not None and grad is not None:
                _store_non_leaf_grad(tensor, grad, create_graph)


def _store_non_leaf_grad(tensor: Tensor, grad: Tensor, create_graph: bool) -> None:
    from .engine import _accumulated
    trace = _local.trace
    if trace is not None:  # ug.jit: into the traced .grad (replayed after each call)
        trace.accumulate_grad(tensor, grad)
        return
    if tensor._grad is None:
        tensor._grad = grad if create_graph else _make_tensor(grad._data.copy())
    else:
        tensor._grad = _accumulated(tensor._grad, grad if create_graph else grad._data,
                                    create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple:
    """Return the gradients of ``outputs`` with respect to ``inputs`` (never touches ``.grad``).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor(2.0, requires_grad=True)
        >>> y = ug.tensor(3.0, requires_grad=True)
        >>> ug.autograd.grad(x * x * y, (x, y))
        (tensor(12.), tensor(4.))
    """
    if is_grads_batched:
        raise NotImplementedError("is_grads_batched=True is not supported; compute one vjp per "
                                  "row or use unigrad.jacrev")
    outputs_tuple = _as_tuple(outputs, "outputs")
    as_dict = isinstance(inputs, dict)
    input_tuple = tuple(inputs.values()) if as_dict else _as_tuple(inputs, "inputs")
    if len(input_tuple) == 0:
        raise RuntimeError("grad requires non-empty inputs.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and not allow_unused:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    for tensor in input_tuple:
        if not tensor._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    seeds = _make_seeds(outputs_tuple, grad_outputs, create_graph, "grad_outputs")
    results = run_backward(outputs_tuple, seeds, retain_graph=retain_graph,
                           create_graph=create_graph, inputs=input_tuple, accumulate=False)
    final = []
    for i, (tensor, value) in enumerate(zip(input_tuple, results)):
        if value is None:
            if not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have "
                                   "been used in the graph. Set allow_unused=True if this is the "
                                   "desired behavior.")
            if materialize_grads:
                from ..ops.creation import zeros_like
                value = zeros_like(tensor)
        final.append(value)
    if as_dict:
        return dict(zip(inputs.keys(), final))
    return tuple(final)
