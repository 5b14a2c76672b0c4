"""``torch.autograd.function``: ``Function``, ``FunctionCtx`` and ``once_differentiable``.

Example:
    >>> from unigrad.compat.torch.autograd.function import Function, once_differentiable
    >>> class Double(Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return x * 2
    ...     @staticmethod
    ...     @once_differentiable
    ...     def backward(ctx, grad):
    ...         return grad * 2
    >>> import unigrad.compat.torch as torch
    >>> x = torch.ones(2, requires_grad=True)
    >>> Double.apply(x).sum().backward(); x.grad
    tensor([2., 2.])
"""

from unigrad.autograd import Function, FunctionCtx
from unigrad.autograd.function import once_differentiable

__all__ = ["Function", "FunctionCtx", "once_differentiable"]
