"""Mixed precision (MindSpore's ``mindspore.amp``, PyTorch's ``torch.amp``).

- ``StaticLossScaler`` / ``DynamicLossScaler``: scale the loss, unscale the
  gradients, adapt the scale on overflow;
- ``all_finite``: whether a set of gradients overflowed;
- ``autocast``: run matmul-like ops in float16 and losses/reductions in float32.

Example:
    >>> import unigrad as ug
    >>> from unigrad import amp
    >>> scaler = amp.DynamicLossScaler(scale_value=2**16, scale_factor=2, scale_window=1000)
    >>> grads = scaler.unscale((ug.tensor([65536.0, float("nan")]),))
    >>> finite = amp.all_finite(grads)
    >>> _ = scaler.adjust(finite)
    >>> bool(finite), float(scaler.scale_value)
    (False, 32768.0)
"""

from .autocast import autocast, get_autocast_dtype, is_autocast_enabled
from .loss_scaler import DynamicLossScaler, LossScaler, StaticLossScaler, all_finite

__all__ = ["LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite", "autocast",
           "is_autocast_enabled", "get_autocast_dtype"]
