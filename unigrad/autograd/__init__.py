"""The tape: ``backward``, ``grad``, grad modes (PyTorch semantics)."""

from . import forward_ad, graph
from .anomaly import (
                      detect_anomaly,
                      is_anomaly_check_nan_enabled,
                      is_anomaly_enabled,
                      set_detect_anomaly,
)
from .api import backward, grad
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (
                      enable_grad,
                      inference_mode,
                      is_grad_enabled,
                      is_inference_mode_enabled,
                      no_grad,
                      set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .node import Node
from .variable import Variable

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled", "Node", "Function", "FunctionCtx",
           "once_differentiable", "gradcheck", "gradgradcheck", "GradcheckError", "detect_anomaly",
           "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "forward_ad", "graph", "Variable"]
