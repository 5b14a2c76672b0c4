"""LARS (MindSpore's ``nn.LARS``): layer-wise rescaled gradients fed to another optimizer.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([3.0, 4.0]), name="w")
    >>> opt = optim.LARS(optim.SGD([w], lr=1.0), coefficient=0.1)
    >>> opt([ug.tensor([0.0, 1.0])])  # the gradient is scaled by 0.1 * 5 / (1 + 1e-5)
    True
    >>> w
    Parameter containing:
    tensor([3.0000, 3.5000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Callable

from .. import _state
from ..autograd import enable_grad, no_grad
from ..tensor import Tensor
from .optimizer import Optimizer, lr_at
from .sgd import Momentum


def check_type(owner: str, name: str, value, kind: type):
    """``value`` if it is a ``kind`` (bool only when ``kind`` is bool), else MindSpore's TypeError.

    Example:
        >>> from unigrad.optim.lars import check_type
        >>> check_type("LARS", "epsilon", 1e-5, float)
        1e-05
        >>> check_type("LARS", "epsilon", 1, float)
        Traceback (most recent call last):
        ...
        TypeError: For 'LARS', the type of 'epsilon' should be 'float', but got type 'int'.
    """
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise TypeError(f"For '{owner}', the type of '{name}' should be '{kind.__name__}', but "
                        f"got type '{type(value).__name__}'.")
    return value


def default_lars_filter(param: Tensor) -> bool:
    """MindSpore's default ``lars_filter``: True unless the name has ``LayerNorm`` or ``bias``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.lars import default_lars_filter
        >>> default_lars_filter(ug.nn.Parameter(ug.ones(1), name="fc.bias"))
        False
    """
    name = getattr(param, "name", None) or ""
    return "LayerNorm" not in name and "bias" not in name


def _square_norm(tensor: Tensor) -> Tensor:
    return (tensor * tensor).sum().sqrt()


class LARS:
    """LARS (MindSpore's ``nn.LARS``): wraps ``optimizer`` and rescales its gradients.

    ``LARS(optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
    lars_filter=default_lars_filter)``. The wrapped optimizer's weight decay
    and loss scale move to LARS (MindSpore does the same): its groups'
    ``weight_decay`` become 0 and its ``loss_scale`` 1. Per call, each
    gradient ``g`` is divided by the loss scale; for a parameter ``w`` kept
    by ``lars_filter`` (with ``d`` its group's ``weight_decay`` where the
    decay applies, i.e. not to ``beta``/``gamma`` names in a flat list, else 0)::

        c = coefficient * ||w|| / (||g|| + d * ||w|| + epsilon)
        c = min(c / lr, 1) * lr                       # use_clip: lr of w's group
        g = (g + d * w) * c

    and the wrapped optimizer applies the result. Calling styles, ``step``,
    ``zero_grad``, ``param_groups``, ``state`` and the state dicts are the
    wrapped optimizer's.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([3.0, 4.0]), name="w")
        >>> opt = optim.LARS(optim.SGD([w], lr=0.01), coefficient=0.1, use_clip=True)
        >>> (w * w).sum().backward()
        >>> opt.step()  # clipped: the gradient is scaled by min(0.05, lr) = 0.01
        >>> [round(x, 6) for x in w.tolist()]
        [2.9994, 3.9992]
    """

    def __init__(self, optimizer: Optimizer, epsilon: float = 1e-05, coefficient: float = 0.001,
                 use_clip: bool = False,
                 lars_filter: Callable[[Tensor], bool] = default_lars_filter) -> None:
        owner = type(self).__name__
        check_type(owner, "optimizer", optimizer, Optimizer)
        self.epsilon = check_type(owner, "epsilon", epsilon, float)
        self.coefficient = check_type(owner, "coefficient", coefficient, float)
        self.use_clip = check_type(owner, "use_clip", use_clip, bool)
        groups = optimizer.param_groups
        if use_clip and len({repr(g["lr"]) for g in groups}) > 1 and \
                any(isinstance(g["lr"], tuple) for g in groups):
            raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the "
                             "dynamic learning rate and group learning rate cannot both be true.")
        params = optimizer.parameters
        self.lars_flag = tuple(bool(lars_filter(param)) for param in params)
        self.decay_flags = tuple(Momentum._decays(optimizer, param) for param in params)
        self.weight_decay = tuple(float(g.get("weight_decay", 0.0)) for g in groups)
        self.loss_scale = optimizer.loss_scale
        self.optimizer = optimizer
        for group in groups:
            if "weight_decay" in group:
                group["weight_decay"] = 0.0
        optimizer.loss_scale = 1.0

    def __getattr__(self, name: str):
        if name == "optimizer":  # not set yet
            raise AttributeError(name)
        return getattr(self.optimizer, name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.optimizer!r})"

    def __call__(self, gradients) -> bool:
        """Rescale ``gradients`` (in ``parameters`` order; None skips) and apply them."""
        return self.construct(gradients)

    def construct(self, gradients) -> bool:
        """MindSpore's name for the update call: ``opt.construct(grads)`` is ``opt(grads)``."""
        inner = self.optimizer
        if isinstance(gradients, (tuple, list)) and len(gradients) == len(inner.parameters):
            for grad, param in zip(gradients, inner.parameters):
                if isinstance(grad, Tensor) and grad._data.shape != param._data.shape:
                    break
            else:
                gradients = self._rescaled(gradients)
        return inner(gradients)  # its checks raise before anything changes when they fail

    def step(self, closure: Callable[[], object] | None = None):
        """Rescale every ``.grad`` and let the wrapped optimizer apply it; returns the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        trace = _state.local.trace
        grads = [param._grad if trace is None else trace.grad_of(param)
                 for param in self.optimizer.parameters]
        self.construct(grads)
        return loss

    def _rescaled(self, gradients) -> list:
        inner = self.optimizer
        rescaled = []
        index = 0
        with no_grad():
            for group, decay in zip(inner.param_groups, self.weight_decay):
                lr = lr_at(group["lr"], inner.global_step)
                for param in group["params"]:
                    grad = gradients[index]
                    if isinstance(grad, Tensor) and self.lars_flag[index]:
                        decay_here = decay if self.decay_flags[index] else 0.0
                        grad = self._lars_gradient(param, grad, decay_here, lr)
                    elif isinstance(grad, Tensor) and self.loss_scale != 1.0:
                        grad = grad / float(self.loss_scale)
                    rescaled.append(grad)
                    index += 1
        return rescaled

    def _lars_gradient(self, param: Tensor, grad: Tensor, decay: float, lr: float) -> Tensor:
        """One parameter's LARS gradient (MindSpore's ``LARSUpdate``)."""
        grad = grad.to(param.dtype) / float(self.loss_scale)
        param_norm = _square_norm(param)
        coefficient = self.coefficient * param_norm / (
            _square_norm(grad) + decay * param_norm + self.epsilon)
        if self.use_clip:
            coefficient = (coefficient / lr).clamp(max=1.0) * lr if lr > 0 else coefficient * 0.0
        return grad.add(param, alpha=decay) * coefficient


__all__ = ["LARS"]
