"""PyTorch's ``torch.nn.functional`` spelled for unigrad: activations, losses, convolutions.

The functions are the ``unigrad.ops.nn_*`` families'; ``relu`` and ``silu``
take ``F``'s ``inplace=`` argument on top of the elementwise ops ``ug.relu``
and ``ug.silu``.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.relu(ug.tensor([-1.0, 2.0]))
    tensor([0., 2.])
"""

from ..ops import elementwise as _elementwise
from ..ops.elementwise import gelu, sigmoid, softplus, tanh
from ..ops.inplace import apply_inplace as _apply_inplace
from ..ops.nn_functional import *  # noqa: F401,F403
from ..ops.nn_functional import __all__ as _NN_FUNCTIONS
from ..ops.shape import pad


def relu(input, inplace: bool = False):
    """``max(input, 0)`` (``F.relu``); ``inplace=True`` writes into ``input`` and returns it.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> x = ug.tensor([-1.0, 2.0])
        >>> F.relu(x, inplace=True) is x, x
        (True, tensor([0., 2.]))
    """
    if inplace:
        return relu_(input)  # noqa: F405 - nn_activations' in-place form
    return _elementwise.relu(input)


def silu(input, inplace: bool = False):
    """``input * sigmoid(input)`` (``F.silu``); ``inplace=True`` writes into ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.silu(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 0.7311])
    """
    if inplace:
        return _apply_inplace(input, _elementwise.silu)
    return _elementwise.silu(input)


__all__ = list(_NN_FUNCTIONS) + ["gelu", "relu", "sigmoid", "silu", "softplus", "tanh", "pad"]
