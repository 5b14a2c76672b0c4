"""``tf.keras.optimizers``: Keras 3's optimizers over TensorFlow variables.

``optimizer.apply_gradients(zip(grads, variables))`` (or ``apply(grads,
variables)``) clips the gradients (``clipnorm``, ``clipvalue`` or
``global_clipnorm``), shrinks each variable by ``learning_rate *
weight_decay`` when ``weight_decay`` is set, applies the optimizer's rule and
counts the update in ``iterations``. ``learning_rate`` is a float, a
:mod:`schedules` schedule (called with ``iterations``) or a function of no
arguments. The rules and their ``epsilon`` placement are Keras 3's.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> w = tf.Variable([1.0, 2.0], name="w")
    >>> optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
    >>> with tf.GradientTape() as tape:
    ...     loss = tf.reduce_sum(w * w)
    >>> optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
    >>> w.numpy(), int(optimizer.iterations)
    (array([0.8, 1.6], dtype=float32), 1)
"""

from __future__ import annotations

import inspect
import math
import re

import numpy as np

import unigrad as _ug

from ..._tensor import Tensor, Variable, as_tf, convert_to_tensor
from ...dtypes import int64
from ...errors import InvalidArgumentError
from . import schedules
from .schedules import LearningRateSchedule

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax",
           "Nadam", "Ftrl", "schedules"]


class Optimizer:
    """Base class of the Keras optimizers: state, clipping, weight decay, ``iterations``.

    ``Optimizer(learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
    global_clipnorm=None, use_ema=False, ema_momentum=0.99,
    ema_overwrite_frequency=None, loss_scale_factor=None,
    gradient_accumulation_steps=None, name=None)``. Subclasses define
    ``_slot_names`` (the state kept per variable, created at zero by
    :meth:`build`) and ``update_step(gradient, variable, learning_rate)``.
    ``use_ema``, ``loss_scale_factor`` and ``gradient_accumulation_steps``
    are not supported (NotImplementedError).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
        >>> optimizer.learning_rate
        <tf.Variable 'learning_rate:0' shape=() dtype=float32, numpy=0.01>
        >>> optimizer.iterations
        <tf.Variable 'iteration:0' shape=() dtype=int64, numpy=0>
    """

    _slot_names: tuple = ()

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name: str | None = None, **kwargs):
        kwargs.pop("decay", None)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        for option, value in (("use_ema", use_ema), ("loss_scale_factor", loss_scale_factor),
                              ("gradient_accumulation_steps", gradient_accumulation_steps)):
            if value:
                raise NotImplementedError(f"{type(self).__name__}: `{option}` is not supported "
                                          "by unigrad's Keras optimizers")
        if sum(value is not None for value in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be "
                             f"set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}")
        self.name = name or _snake_case(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema = use_ema
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._iterations = Variable(0, dtype=int64, trainable=False, name="iteration")
        if isinstance(learning_rate, LearningRateSchedule) or callable(learning_rate):
            self._learning_rate = learning_rate
        elif isinstance(learning_rate, float):
            self._learning_rate = Variable(learning_rate, trainable=False,
                                           name="learning_rate")
        else:
            raise ValueError("Argument `learning_rate` should be float, or an instance of "
                             "LearningRateSchedule, or a callable (that takes in the current "
                             "iteration value and returns the corresponding learning rate "
                             f"value). Received instead: learning_rate={learning_rate}")
        self._slots: dict[int, dict[str, Variable]] = {}
        self._variables: list = []
        self._excluded_ids: set = set()
        self._excluded_pattern = None
        self.built = False

    # ------------------------------------------------------------ properties
    @property
    def iterations(self) -> Variable:
        """The number of updates applied so far (an int64 variable)."""
        return self._iterations

    @property
    def learning_rate(self):
        """The current rate: the variable, or the schedule's value at ``iterations``."""
        if isinstance(self._learning_rate, LearningRateSchedule):
            return self._learning_rate(self._iterations)
        if isinstance(self._learning_rate, Variable):
            return self._learning_rate
        return self._learning_rate()

    @learning_rate.setter
    def learning_rate(self, learning_rate) -> None:
        if isinstance(learning_rate, LearningRateSchedule) or callable(learning_rate):
            self._learning_rate = learning_rate
            return
        if not isinstance(self._learning_rate, Variable):
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as "
                            "its `learning_rate` constructor argument, hence its learning rate "
                            "is not settable. If you need the learning rate to be settable, you "
                            "should instantiate the optimizer with a float `learning_rate` "
                            "argument.")
        self._learning_rate.assign(learning_rate)

    @property
    def variables(self) -> list:
        """The optimizer's variables: ``iterations``, a float ``learning_rate``, the slots."""
        fixed = [self._iterations]
        if isinstance(self._learning_rate, Variable):
            fixed.append(self._learning_rate)
        return fixed + [slot for variable in self._variables
                        for slot in self._slots[id(variable)].values()]

    def exclude_from_weight_decay(self, var_list=None, var_names=None) -> None:
        """Exempt ``var_list`` and the variables whose name contains one of ``var_names``
        (regular expressions) from weight decay. Keras documents it for before the first
        update, but accepts it later too (it then applies from the next update).

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> w, b = tf.Variable([1.0], name="w"), tf.Variable([1.0], name="bias")
            >>> optimizer = tf.keras.optimizers.SGD(0.5, weight_decay=0.2)
            >>> optimizer.exclude_from_weight_decay(var_names=["bias"])
            >>> optimizer.apply_gradients([(tf.constant([0.0]), w), (tf.constant([0.0]), b)])
            >>> w.numpy(), b.numpy()
            (array([0.9], dtype=float32), array([1.], dtype=float32))
        """
        self._excluded_ids = {id(variable) for variable in var_list or ()}
        self._excluded_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _decays(self, variable) -> bool:
        if id(variable) in self._excluded_ids:
            return False
        return self._excluded_pattern is None or \
            self._excluded_pattern.search(variable.name) is None

    # -------------------------------------------------------------- updates
    def build(self, var_list) -> None:
        """Create the per-variable state (zeros, or :meth:`_initial_slot_value`)."""
        for variable in var_list:
            if id(variable) in self._slots:
                continue
            self._variables.append(variable)
            base = variable.name.split(":")[0]
            self._slots[id(variable)] = {
                slot: Variable(np.full(tuple(variable.shape), self._initial_slot_value(slot),
                                       dtype=variable.numpy().dtype),
                               trainable=False, name=f"{base}_{slot}")
                for slot in self._slots_for()}
        self.built = True

    def _slots_for(self) -> tuple:
        return self._slot_names

    def _initial_slot_value(self, slot: str) -> float:
        return 0.0

    def apply_gradients(self, grads_and_vars) -> None:
        """Apply ``(gradient, variable)`` pairs (pairs with a None gradient are skipped).

        Raises:
            ValueError: For a variable that is not a ``tf.Variable``, or a
                gradient of another shape.
        """
        pairs = list(grads_and_vars)
        self.apply([grad for grad, _ in pairs], [variable for _, variable in pairs])

    def apply(self, grads, trainable_variables=None) -> None:
        """Apply ``grads`` to ``trainable_variables`` (same order); see :meth:`apply_gradients`."""
        grads = list(grads)
        if trainable_variables is None:
            trainable_variables = self._variables
        trainable_variables = list(trainable_variables)
        if len(grads) != len(trainable_variables):
            raise ValueError(f"Expected {len(trainable_variables)} gradients, one per variable; "
                             f"received {len(grads)}")
        pairs = [(self._gradient(grad, variable), variable)
                 for grad, variable in zip(grads, trainable_variables) if grad is not None]
        if not pairs:
            return
        self.build([variable for _, variable in pairs])
        grads = self._clip_gradients([grad for grad, _ in pairs])
        with _ug.no_grad():
            learning_rate = self._current_rate()
            if self.weight_decay is not None:
                for _, variable in filter(lambda pair: self._decays(pair[1]), pairs):
                    variable.sub_(variable.detach() * (learning_rate * float(self.weight_decay)))
            self._update_all(grads, [variable for _, variable in pairs], learning_rate)
        self._iterations.assign_add(1)

    def _update_all(self, grads: list, variables: list, learning_rate: float) -> None:
        for grad, variable in zip(grads, variables):
            self.update_step(grad, variable, learning_rate)

    def update_step(self, gradient, variable, learning_rate) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not define `update_step`")

    def _gradient(self, grad, variable):
        if not isinstance(variable, Variable):
            raise ValueError(f"{type(self).__name__}: can only update tf.Variable objects, got "
                             f"{type(variable).__name__}")
        grad = convert_to_tensor(grad).detach()
        if tuple(grad.shape) != tuple(variable.shape):
            raise InvalidArgumentError(
                None, None, f"Cannot update variable with shape {list(variable.shape)} using a "
                f"Tensor with shape {list(grad.shape)}, shapes must be equal.")
        return as_tf(grad.to(variable.dtype))

    def _current_rate(self) -> float:
        rate = self.learning_rate
        return float(rate.numpy()) if isinstance(rate, Tensor) else float(rate)

    def _clip_gradients(self, grads: list) -> list:
        if self.clipnorm and self.clipnorm > 0:
            return [grad * (self.clipnorm / max(float(_ug.linalg.vector_norm(grad)),
                                                self.clipnorm)) for grad in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = math.sqrt(sum(float((grad * grad).sum()) for grad in grads))
            scale = self.global_clipnorm * min(1.0 / norm if norm else math.inf,
                                               1.0 / self.global_clipnorm)
            return [grad * scale for grad in grads]
        if self.clipvalue and self.clipvalue > 0:
            return [grad.clamp(-self.clipvalue, self.clipvalue) for grad in grads]
        return grads

    def _slot(self, variable, name: str) -> Variable:
        return self._slots[id(variable)][name]

    def _local_step(self) -> float:
        """The number of the update being applied (``iterations + 1``)."""
        return float(self._iterations.numpy()) + 1.0

    def get_config(self) -> dict:
        """The constructor arguments, Keras's common ones first, then the optimizer's own.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> config = tf.keras.optimizers.SGD(0.5, momentum=0.25).get_config()
            >>> config["learning_rate"], config["momentum"], config["nesterov"]
            (0.5, 0.25, False)
            >>> tf.keras.optimizers.SGD.from_config(config).momentum
            0.25
        """
        rate = self._learning_rate
        config = {"name": self.name,
                  "learning_rate": float(rate.numpy()) if isinstance(rate, Variable) else rate,
                  "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                  "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                  "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                  "ema_overwrite_frequency": self.ema_overwrite_frequency,
                  "loss_scale_factor": self.loss_scale_factor,
                  "gradient_accumulation_steps": self.gradient_accumulation_steps}
        for name in inspect.signature(type(self).__init__).parameters:
            if name not in config and name not in ("self", "kwargs"):
                config[name] = getattr(self, name)
        return config

    @classmethod
    def from_config(cls, config: dict):
        """An optimizer built from :meth:`get_config`'s dict."""
        return cls(**config)


def _power(base: float, exponent: float, variable) -> float:
    """``base ** exponent`` with ``base`` rounded to the variable's dtype (Keras casts the
    betas to it, so ``1 - beta_2**t`` is that of the float32 number for float32 variables)."""
    return float(np.asarray(base, dtype=variable._data.dtype)) ** exponent


def _snake_case(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() and i else c.lower()
                   for i, c in enumerate(name))


class SGD(Optimizer):
    """``SGD(learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None, ...)``::

        m = momentum * m - lr * g
        var += momentum * m - lr * g if nesterov else m      # var -= lr * g without momentum

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.5)
        >>> for _ in range(2):
        ...     optimizer.apply_gradients([(tf.constant([1.0]), w)])
        >>> w.numpy()  # 1 - 0.1 - (0.5 * 0.1 + 0.1)
        array([0.75], dtype=float32)
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov: bool = False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def _slots_for(self) -> tuple:
        return ("momentum",) if self.momentum != 0 else ()

    def update_step(self, gradient, variable, learning_rate) -> None:
        if self.momentum == 0:
            variable.sub_(gradient * learning_rate)
            return
        buffer = self._slot(variable, "momentum")
        buffer.mul_(self.momentum).sub_(gradient * learning_rate)
        if self.nesterov:
            variable.add_(buffer * self.momentum - gradient * learning_rate)
        else:
            variable.add_(buffer)


class Adam(Optimizer):
    """``Adam(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
    weight_decay=None, ...)``. Keras adds ``epsilon`` before the bias correction::

        m += (g - m) * (1 - beta_1);  v += (g * g - v) * (1 - beta_2)
        v_hat = max(v_hat, v)                                  # amsgrad: used as v
        var -= lr * sqrt(1 - beta_2**t) / (1 - beta_1**t) * m / (sqrt(v) + epsilon)

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> tf.keras.optimizers.Adam(0.1).apply_gradients([(tf.constant([2.0]), w)])
        >>> w.numpy()  # about 1 - 0.1: epsilon is added before the bias correction
        array([0.9000008], dtype=float32)
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad: bool = False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def _slots_for(self) -> tuple:
        return ("momentum", "velocity") + (("velocity_hat",) if self.amsgrad else ())

    def update_step(self, gradient, variable, learning_rate) -> None:
        step = self._local_step()
        alpha = (learning_rate * math.sqrt(1 - _power(self.beta_2, step, variable))
                 / (1 - _power(self.beta_1, step, variable)))
        m = self._slot(variable, "momentum")
        v = self._slot(variable, "velocity")
        m.add_((gradient - m) * (1 - self.beta_1))
        v.add_((gradient * gradient - v) * (1 - self.beta_2))
        if self.amsgrad:
            v = self._slot(variable, "velocity_hat").maximum_(v)
        variable.sub_(m * alpha / (v.sqrt() + self.epsilon))


class AdamW(Adam):
    """``AdamW(learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
    epsilon=1e-7, amsgrad=False, ...)``: :class:`Adam` after ``var -= lr * weight_decay *
    var``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([2.0])
        >>> tf.keras.optimizers.AdamW(0.1, weight_decay=0.5).apply_gradients(
        ...     [(tf.constant([0.0]), w)])
        >>> w.numpy()  # 2 * (1 - 0.1 * 0.5)
        array([1.9], dtype=float32)
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad: bool = False, **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad,
                         weight_decay=weight_decay, **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")


class RMSprop(Optimizer):
    """``RMSprop(learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
    ...)``. Keras puts ``epsilon`` inside the square root and the rate in the momentum::

        v = rho * v + (1 - rho) * g * g;  a = rho * a + (1 - rho) * g    # a: centered
        step = lr * g / sqrt(v - a * a + epsilon)
        mom = momentum * mom + step;  var -= mom                        # or var -= step

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> tf.keras.optimizers.RMSprop(0.1, rho=0.75).apply_gradients([(tf.constant([2.0]), w)])
        >>> w.numpy()  # 1 - 0.1 * 2 / sqrt(0.25 * 4)
        array([0.8], dtype=float32)
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered: bool = False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def _slots_for(self) -> tuple:
        return (("velocity",) + (("momentum",) if self.momentum > 0 else ())
                + (("average_gradient",) if self.centered else ()))

    def update_step(self, gradient, variable, learning_rate) -> None:
        velocity = self._slot(variable, "velocity")
        velocity.mul_(self.rho).add_(gradient * gradient * (1 - self.rho))
        denominator = velocity + self.epsilon
        if self.centered:
            average = self._slot(variable, "average_gradient")
            average.mul_(self.rho).add_(gradient * (1 - self.rho))
            denominator = velocity - average * average + self.epsilon
        increment = gradient * learning_rate / denominator.sqrt()
        if self.momentum > 0:
            increment = self._slot(variable, "momentum").mul_(self.momentum).add_(increment)
        variable.sub_(increment)


class Adagrad(Optimizer):
    """``Adagrad(learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, ...)``::

        acc += g * g;  var -= lr * g / sqrt(acc + epsilon)

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> tf.keras.optimizers.Adagrad(0.1, initial_accumulator_value=5.0,
        ...                             epsilon=0.0).apply_gradients([(tf.constant([2.0]), w)])
        >>> w.numpy()  # 1 - 0.1 * 2 / sqrt(5 + 4)
        array([0.93333334], dtype=float32)
    """

    _slot_names = ("accumulator",)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _initial_slot_value(self, slot: str) -> float:
        return self.initial_accumulator_value

    def update_step(self, gradient, variable, learning_rate) -> None:
        accumulator = self._slot(variable, "accumulator").add_(gradient * gradient)
        variable.sub_(gradient * learning_rate / (accumulator + self.epsilon).sqrt())


class Adadelta(Optimizer):
    """``Adadelta(learning_rate=0.001, rho=0.95, epsilon=1e-7, ...)``::

        acc_g = rho * acc_g + (1 - rho) * g * g
        delta = -sqrt(acc_d + epsilon) * g / sqrt(acc_g + epsilon)
        acc_d = rho * acc_d + (1 - rho) * delta * delta;  var += lr * delta

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> tf.keras.optimizers.Adadelta(1.0, rho=0.5, epsilon=0.01).apply_gradients(
        ...     [(tf.constant([2.0]), w)])
        >>> w.numpy()  # 1 - sqrt(0.01) * 2 / sqrt(0.5 * 4 + 0.01)
        array([0.8589309], dtype=float32)
    """

    _slot_names = ("accumulated_grad", "accumulated_delta_var")

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def update_step(self, gradient, variable, learning_rate) -> None:
        accumulated_grad = self._slot(variable, "accumulated_grad")
        accumulated_delta = self._slot(variable, "accumulated_delta_var")
        accumulated_grad.mul_(self.rho).add_(gradient * gradient * (1 - self.rho))
        delta = -((accumulated_delta + self.epsilon).sqrt() * gradient
                  / (accumulated_grad + self.epsilon).sqrt())
        accumulated_delta.mul_(self.rho).add_(delta * delta * (1 - self.rho))
        variable.add_(delta * learning_rate)


class Adamax(Optimizer):
    """``Adamax(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, ...)``::

        m += (g - m) * (1 - beta_1);  u = max(beta_2 * u, |g|)
        var -= lr * m / ((1 - beta_1**t) * (u + epsilon))

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> tf.keras.optimizers.Adamax(0.1, epsilon=1.0).apply_gradients(
        ...     [(tf.constant([2.0]), w)])
        >>> w.numpy()  # 1 - 0.1 * 2 / (2 + 1)
        array([0.93333334], dtype=float32)
    """

    _slot_names = ("momentum", "norm")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def update_step(self, gradient, variable, learning_rate) -> None:
        m = self._slot(variable, "momentum")
        u = self._slot(variable, "norm")
        m.add_((gradient - m) * (1 - self.beta_1))
        u.mul_(self.beta_2).maximum_(gradient.abs())
        correction = 1 - _power(self.beta_1, self._local_step(), variable)
        variable.sub_(m * learning_rate / ((u + self.epsilon) * correction))


class Nadam(Optimizer):
    """``Nadam(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, ...)``: Adam with
    Nesterov momentum and Keras's momentum schedule ``u_t = beta_1 * (1 - 0.5 * 0.96**t)``::

        m += (g - m) * (1 - beta_1);  v += (g * g - v) * (1 - beta_2)
        m_hat = u_{t+1} * m / (1 - prod u_1..u_{t+1}) + (1 - u_t) * g / (1 - prod u_1..u_t)
        var -= lr * m_hat / (sqrt(v / (1 - beta_2**t)) + epsilon)

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> tf.keras.optimizers.Nadam(0.1).apply_gradients([(tf.constant([2.0]), w)])
        >>> round(float(w.numpy()[0]), 5)
        0.89372
    """

    _slot_names = ("momentum", "velocity")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self._u_product = 1.0

    def _momentum_at(self, step: float) -> float:
        return self.beta_1 * (1.0 - 0.5 * 0.96 ** step)

    def _update_all(self, grads: list, variables: list, learning_rate: float) -> None:
        self._u_product *= self._momentum_at(self._local_step())
        super()._update_all(grads, variables, learning_rate)

    def update_step(self, gradient, variable, learning_rate) -> None:
        step = self._local_step()
        u_t, u_next = self._momentum_at(step), self._momentum_at(step + 1)
        product, product_next = self._u_product, self._u_product * u_next
        m = self._slot(variable, "momentum")
        v = self._slot(variable, "velocity")
        m.add_((gradient - m) * (1 - self.beta_1))
        v.add_((gradient * gradient - v) * (1 - self.beta_2))
        m_hat = m * (u_next / (1 - product_next)) + gradient * ((1 - u_t) / (1 - product))
        v_hat = v / (1 - _power(self.beta_2, step, variable))
        variable.sub_(m_hat * learning_rate / (v_hat.sqrt() + self.epsilon))


class Ftrl(Optimizer):
    """``Ftrl(learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
    l1_regularization_strength=0.0, l2_regularization_strength=0.0,
    l2_shrinkage_regularization_strength=0.0, beta=0.0, ...)``: Follow The Regularized
    Leader (Keras's rule, ``p = -learning_rate_power``)::

        new_acc = acc + g * g
        linear += g + 2 * l2_shrinkage * var - (new_acc**p - acc**p) / lr * var
        quadratic = new_acc**p / lr + 2 * (l2 + beta / (2 * lr))
        var = (clip(linear, -l1, l1) - linear) / quadratic;  acc = new_acc

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> w = tf.Variable([1.0])
        >>> tf.keras.optimizers.Ftrl(0.1, initial_accumulator_value=0.0).apply_gradients(
        ...     [(tf.constant([2.0]), w)])
        >>> w.numpy()  # linear = 2 - 20 * 1 = -18; var = 18 / 20
        array([0.9], dtype=float32)
    """

    _slot_names = ("accumulator", "linear")

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, **kwargs):
        super().__init__(learning_rate, **kwargs)
        for name, value in (("initial_accumulator_value", initial_accumulator_value),
                            ("l1_regularization_strength", l1_regularization_strength),
                            ("l2_regularization_strength", l2_regularization_strength),
                            ("l2_shrinkage_regularization_strength",
                             l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"`{name}` needs to be positive or zero. Received: "
                                 f"{name}={value}.")
        if learning_rate_power > 0.0:
            raise ValueError("`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def _initial_slot_value(self, slot: str) -> float:
        return self.initial_accumulator_value if slot == "accumulator" else 0.0

    def update_step(self, gradient, variable, learning_rate) -> None:
        power = -self.learning_rate_power
        accumulator = self._slot(variable, "accumulator")
        linear = self._slot(variable, "linear")
        new_accumulator = accumulator + gradient * gradient
        shrinkage = 2 * self.l2_shrinkage_regularization_strength
        linear.add_(gradient + variable.detach() * shrinkage
                    - (new_accumulator ** power - accumulator ** power) / learning_rate
                    * variable.detach())
        l2 = self.l2_regularization_strength + self.beta / (2.0 * learning_rate)
        quadratic = new_accumulator ** power / learning_rate + 2 * l2
        l1 = self.l1_regularization_strength
        variable.copy_((linear.clamp(-l1, l1) - linear) / quadratic)
        accumulator.copy_(new_accumulator)
