"""``unigrad.nn.utils`` (PyTorch's ``torch.nn.utils``): gradient clipping, parameter
vectors, batch-norm fusion, and the ``rnn``, ``parametrize`` and ``parametrizations``
submodules.

Example:
    >>> import unigrad as ug
    >>> from unigrad.nn.utils import clip_grad_norm_
    >>> w = ug.tensor([3.0, 4.0], requires_grad=True)
    >>> (w * w).sum().backward()
    >>> clip_grad_norm_([w], max_norm=1.0)
    tensor(10.)
"""

from . import parametrizations, parametrize, rnn
from .clip_grad import *  # noqa: F403
from .clip_grad import __all__ as _clip_grad_all
from .convert_parameters import *  # noqa: F403
from .convert_parameters import __all__ as _convert_parameters_all
from .fusion import *  # noqa: F403
from .fusion import __all__ as _fusion_all
from .spectral_norm import *  # noqa: F403
from .spectral_norm import __all__ as _spectral_norm_all
from .weight_norm import *  # noqa: F403
from .weight_norm import __all__ as _weight_norm_all

__all__ = (_clip_grad_all + _convert_parameters_all + _fusion_all + _weight_norm_all
           + _spectral_norm_all + ["parametrizations", "parametrize", "rnn"])
