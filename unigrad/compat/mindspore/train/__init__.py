"""``mindspore.train``: ``Model``, callbacks, metrics and checkpoint functions.

The checkpoint functions (``save_checkpoint``...) and the amp names
(``build_train_network``, the loss-scale managers) are MindSpore's
re-exports; they are looked up when first used, so that ``mindspore.nn``
may import ``train.metrics`` without an import cycle.

Example:
    >>> from unigrad.compat.mindspore.train import Model, LossMonitor, Accuracy
    >>> LossMonitor(2)._per_print_times, Accuracy().eval_type
    (2, 'classification')
"""

import importlib

from .callback import (
    Callback,
    CheckpointConfig,
    LossMonitor,
    ModelCheckpoint,
    RunContext,
    TimeMonitor,
)
from .metrics import MAE, MSE, Accuracy, Loss, Metric
from .metrics_more import *  # noqa: F403
from .metrics_more import __all__ as _more_metric_names
from .model import Model

_REEXPORTED = {"save_checkpoint": "_checkpoint", "load_checkpoint": "_checkpoint",
               "load_param_into_net": "_checkpoint", "build_train_network": "amp",
               "LossScaleManager": "amp", "FixedLossScaleManager": "amp",
               "DynamicLossScaleManager": "amp"}

__all__ = ["Model", "Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint",
           "CheckpointConfig", "Metric", "Accuracy", "Loss", "MAE", "MSE", *_more_metric_names,
           *_REEXPORTED]


def __getattr__(name: str):
    if name in _REEXPORTED:
        module = importlib.import_module(f"..{_REEXPORTED[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
