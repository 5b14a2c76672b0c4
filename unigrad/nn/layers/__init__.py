"""Layers: Cells with Parameters (Dense/Linear, Conv, norms, Embedding) and stateless Cells.

Every name in ``__all__`` is also ``ug.nn.<name>``.

Example:
    >>> import unigrad as ug
    >>> ug.nn.Conv2d(3, 8, 3, padding=1)
    Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
"""

from .activation import *
from .activation import __all__ as _activation_all
from .adaptive import *
from .adaptive import __all__ as _adaptive_all
from .conv import *
from .conv import __all__ as _conv_all
from .distance import *
from .distance import __all__ as _distance_all
from .dropout import *
from .dropout import __all__ as _dropout_all
from .embedding import *
from .embedding import __all__ as _embedding_all
from .flatten import *
from .flatten import __all__ as _flatten_all
from .linear import *
from .linear import __all__ as _linear_all
from .normalization import *
from .normalization import __all__ as _normalization_all
from .padding import *
from .padding import __all__ as _padding_all
from .pooling import *
from .pooling import __all__ as _pooling_all
from .recurrent import *
from .recurrent import __all__ as _recurrent_all
from .resampling import *
from .resampling import __all__ as _resampling_all
from .transformer import *
from .transformer import __all__ as _transformer_all

__all__ = (_linear_all + _conv_all + _pooling_all + _padding_all + _normalization_all +
           _embedding_all + _dropout_all + _activation_all + _flatten_all +
           _distance_all + _resampling_all + _recurrent_all + _transformer_all +
           _adaptive_all)
