"""``Variable``: PyTorch's deprecated wrapper, kept so old code runs unchanged."""

from __future__ import annotations

from ..tensor import Tensor


def Variable(data, requires_grad: bool = False, volatile: bool = False) -> Tensor:  # noqa: N802
    """A Tensor sharing ``data``'s storage, with ``requires_grad`` set (as modern PyTorch).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd import Variable
        >>> Variable(ug.ones(2), requires_grad=True)
        tensor([1., 1.], requires_grad=True)
    """
    tensor = data.detach() if isinstance(data, Tensor) else Tensor(data)
    if volatile:
        requires_grad = False
    return tensor.requires_grad_(requires_grad)
