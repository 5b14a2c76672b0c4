"""``torch.autograd`` spelled on unigrad's tape engine.

``backward``, ``grad``, ``Variable``, ``Function``, ``gradcheck`` and the grad
modes are unigrad's own (they already follow PyTorch); ``functional`` holds
``torch.autograd.functional`` (``jacobian``, ``hessian``, ``vjp``, ``jvp``,
``hvp``, ``vhp``) and ``forward_ad`` the dual-number API.

Example:
    >>> import unigrad.compat.torch as torch
    >>> from unigrad.compat.torch.autograd import Variable
    >>> x = Variable(torch.ones(2, 2), requires_grad=True)
    >>> y = (x * 2 - 1).sum()
    >>> torch.autograd.backward(y)
    >>> x.grad
    tensor([[2., 2.],
            [2., 2.]])
"""

from unigrad.autograd import (
    Function,
    FunctionCtx,
    GradcheckError,
    Variable,
    backward,
    detect_anomaly,
    enable_grad,
    grad,
    gradcheck,
    gradgradcheck,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_detect_anomaly,
    set_grad_enabled,
)
from unigrad.autograd.function import once_differentiable

from . import forward_ad, function, functional, graph

__all__ = ["Function", "FunctionCtx", "GradcheckError", "Variable", "backward", "detect_anomaly",
           "enable_grad", "forward_ad", "functional", "grad", "graph", "gradcheck", "gradgradcheck",
           "inference_mode", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "is_grad_enabled", "is_inference_mode_enabled", "no_grad", "once_differentiable",
           "set_detect_anomaly", "set_grad_enabled"]
