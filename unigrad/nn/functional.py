"""PyTorch's ``torch.nn.functional`` spelled for unigrad: activations, losses, convolutions.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.relu(ug.tensor([-1.0, 2.0]))
    tensor([0., 2.])
"""

from ..ops.elementwise import gelu, relu, sigmoid, silu, softplus, tanh
from ..ops.nn_functional import *  # noqa: F401,F403
from ..ops.nn_functional import __all__ as _NN_FUNCTIONS
from ..ops.shape import pad

__all__ = list(_NN_FUNCTIONS) + ["gelu", "relu", "sigmoid", "silu", "softplus", "tanh",
                                  "pad"]
