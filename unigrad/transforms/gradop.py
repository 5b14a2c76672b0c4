"""MindSpore's ``GradOperation(get_all, get_by_list, sens_param)`` higher-order function.

``GradOperation(...)(fn[, weights])`` returns the gradient function; call it
with ``fn``'s inputs (and the sensitivity last when ``sens_param``). Return
structures, exactly MindSpore's:

=======================  ==================================  ======================
flags                    inputs / weights                    result
=======================  ==================================  ======================
default                  ``x`` (or ``x, y``)                 ``gx`` (first input)
``get_all``              ``x``                               ``(gx,)``
``get_all``              ``x, y``                            ``(gx, gy)``
``get_by_list``          one Parameter / tuple of one        ``gw`` / ``(gw,)``
``get_all, get_by_list`` ``x``; ``[w, b]``                   ``((gx,), (gw, gb))``
any                      no inputs / no weights              ``()`` in that slot
=======================  ==================================  ======================
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .functional import differentiate, split_sens
from .positions import check_bool, normalize_weights

__all__ = ["GradOperation"]


class GradOperation:
    """Build gradient functions the way MindSpore's ``ops.GradOperation`` does.

    Example:
        >>> import unigrad as ug
        >>> f = lambda x, y: x * y
        >>> x, y = ug.tensor(2.0), ug.tensor(5.0)
        >>> ug.ops.GradOperation()(f)(x, y)
        tensor(5.)
        >>> ug.ops.GradOperation(get_all=True)(f)(x, y)
        (tensor(5.), tensor(2.))
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False):
        for name, flag in (("get_all", get_all), ("get_by_list", get_by_list),
                           ("sens_param", sens_param)):
            check_bool("GradOperation", name, flag)
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __repr__(self) -> str:
        return (f"GradOperation(get_all={self.get_all}, get_by_list={self.get_by_list}, "
                f"sens_param={self.sens_param})")

    def __call__(self, fn: Callable, weights=None) -> Callable:
        if not callable(fn):
            raise TypeError(f"GradOperation: fn must be a callable (a function or a Cell), got "
                            f"{type(fn).__name__}")
        if weights is not None and not self.get_by_list:
            raise ValueError("GradOperation: weights were given but get_by_list is False; "
                             "create it with GradOperation(get_by_list=True)")
        weight_spec = normalize_weights(weights) if self.get_by_list else None

        def gradient_function(*args, **kwargs):
            sens = None
            if self.sens_param:
                args, kwargs, sens = split_sens(args, kwargs)
            indices = tuple(range(len(args))) if self.get_all else tuple(range(min(1, len(args))))
            result = differentiate(fn, args, kwargs, indices,
                                   weight_spec.tensors if weight_spec else (), False, sens)
            input_grads = tuple(grad for _, grad in result.position_grads)
            if self.get_by_list:
                if weight_spec is None:
                    weight_grads = ()
                elif weight_spec.bare:
                    weight_grads = result.weight_grads[0]
                else:
                    weight_grads = tuple(result.weight_grads)
                if self.get_all:
                    return input_grads, weight_grads
                return weight_grads
            if self.get_all:
                return input_grads
            return input_grads[0] if len(input_grads) == 1 else ()

        functools.update_wrapper(gradient_function, fn, updated=())
        return gradient_function
