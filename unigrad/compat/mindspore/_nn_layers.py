"""MindSpore layers with MindSpore's defaults (argument names, Parameter names, ``repr``),
gathered from the ``_nn_*`` modules; ``nn.py`` exports every name here as ``nn.<Name>``.

Example:
    >>> from unigrad.compat.mindspore import nn
    >>> nn.Conv2d(1, 2, 3).weight.shape, nn.BatchNorm2d(2).moving_mean.name
    ((2, 1, 3, 3), 'moving_mean')
"""

from ._nn_activations import *  # noqa: F403
from ._nn_activations import __all__ as _activation_names
from ._nn_adaptive import *  # noqa: F403
from ._nn_adaptive import __all__ as _adaptive_names
from ._nn_conv import *  # noqa: F403
from ._nn_conv import __all__ as _conv_names
from ._nn_conv_transpose import *  # noqa: F403
from ._nn_conv_transpose import __all__ as _conv_transpose_names
from ._nn_dropout import *  # noqa: F403
from ._nn_dropout import __all__ as _dropout_names
from ._nn_losses import *  # noqa: F403
from ._nn_losses import __all__ as _loss_names
from ._nn_more_layers import *  # noqa: F403
from ._nn_more_layers import __all__ as _more_layer_names
from ._nn_more_losses import *  # noqa: F403
from ._nn_more_losses import __all__ as _more_loss_names
from ._nn_norm import *  # noqa: F403
from ._nn_norm import __all__ as _norm_names
from ._nn_padding import *  # noqa: F403
from ._nn_padding import __all__ as _padding_names
from ._nn_recurrent import *  # noqa: F403
from ._nn_recurrent import __all__ as _recurrent_names
from ._nn_resampling import *  # noqa: F403
from ._nn_resampling import __all__ as _resampling_names
from ._nn_schedules import *  # noqa: F403
from ._nn_schedules import __all__ as _schedule_names
from ._nn_wrappers import *  # noqa: F403
from ._nn_wrappers import __all__ as _wrapper_names

__all__ = [*_conv_names, *_conv_transpose_names, *_adaptive_names, *_norm_names,
           *_recurrent_names, *_activation_names, *_loss_names, *_wrapper_names,
           *_padding_names, *_dropout_names, *_resampling_names, *_more_layer_names,
           *_more_loss_names, *_schedule_names]
