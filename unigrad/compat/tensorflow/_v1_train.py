"""``tf.compat.v1.train``: TensorFlow 1's optimizers (``minimize``, ``compute_gradients``,
``apply_gradients``) over graphs and, with a callable loss, eagerly.

In a graph, ``minimize(loss)`` returns an operation: each ``Session.run`` of it
computes the gradients of ``loss`` with respect to the variables it depends on
and updates them with TensorFlow 1's rule; ``global_step`` (a variable) counts
the updates. The slot variables (momentum, Adam's moments) are kept by the
optimizer per variable and start at TensorFlow's values.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> with tf.Graph().as_default():
    ...     w = tf.Variable(3.0)
    ...     x = tf.placeholder(tf.float32)
    ...     loss = (w * x - 1.0) ** 2
    ...     train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    ...     with tf.Session() as sess:
    ...         for _ in range(2):
    ...             _ = sess.run(train, feed_dict={x: 1.0})
    ...         print(round(float(sess.run(w)), 4))
    2.28
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from . import _graph, _transforms
from ._tensor import Variable

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
           "RMSPropOptimizer", "AdagradOptimizer", "get_or_create_global_step"]

_EAGER_LOSS_ERROR = ("`loss` passed to Optimizer.compute_gradients should be a function when "
                     "eager execution is enabled.")


def _depended_variables(loss) -> list:
    """The trainable variables ``loss`` (a graph tensor) is computed from, oldest first."""
    found: dict[int, Variable] = {}
    pending = [loss]
    seen: set[int] = set()
    while pending:
        tensor = pending.pop()
        if id(tensor) in seen:
            continue
        seen.add(id(tensor))
        if isinstance(tensor, Variable):
            if tensor.trainable:
                found[id(tensor)] = tensor
            continue
        if not isinstance(tensor, _graph.SymbolicTensor):
            continue
        operation = tensor.op
        pending.extend(operation.inputs)
        pending.extend(getattr(operation.kernel, "leaves", ()))
    return sorted(found.values(), key=lambda variable: variable._serial)


class _ApplyKernel:
    """Runs an optimizer's update with the computed gradients (its operation's inputs)."""

    def __init__(self, optimizer: Optimizer, pairs: list, global_step):
        self.optimizer, self.pairs, self.global_step = optimizer, pairs, global_step

    def __call__(self, values: dict) -> list:
        pairs = [(values[id(grad)] if isinstance(grad, _graph.SymbolicTensor) else grad, var)
                 for grad, var in self.pairs]
        self.optimizer._update(pairs, self.global_step)
        return []


class Optimizer:
    """The base of TensorFlow 1's optimizers: subclasses give :meth:`_rule`."""

    def __init__(self, use_locking: bool = False, name: str = "Optimizer"):
        if not isinstance(name, str) or not name:
            raise ValueError(f"Must specify the optimizer name, got {name!r}")
        self._name = name
        self._slots: dict[int, dict] = {}
        self._steps = 0

    def get_name(self) -> str:
        return self._name

    # ---------------------------------------------------------------- gradients
    def compute_gradients(self, loss, var_list=None, gate_gradients: int = 1,
                          aggregation_method=None, colocate_gradients_with_ops: bool = False,
                          grad_loss=None) -> list:
        """``[(gradient, variable), ...]`` of ``loss`` (a graph tensor, or a function of no
        arguments when executing eagerly); the gradient is None for a variable ``loss``
        does not depend on.

        Raises:
            RuntimeError: For a tensor ``loss`` while executing eagerly.
            ValueError: When there are no variables to optimize.
        """
        if callable(loss) and not isinstance(loss, _UgTensor):
            return self._eager_gradients(loss, var_list)
        if _graph.building() is None and not isinstance(loss, _graph.SymbolicTensor):
            raise RuntimeError(_EAGER_LOSS_ERROR)
        variables = list(var_list) if var_list is not None else _depended_variables(loss)
        if not variables:
            raise ValueError("No variables to optimize.")
        graph = loss.graph if isinstance(loss, _graph.SymbolicTensor) else None
        if graph is not None and _graph.building() is not graph:
            with graph.as_default():
                grads = _transforms.gradients(loss, variables, grad_ys=grad_loss)
        else:
            grads = _transforms.gradients(loss, variables, grad_ys=grad_loss)
        return list(zip(grads, variables))

    def _eager_gradients(self, loss: Callable, var_list) -> list:
        with _transforms.GradientTape() as tape:
            value = loss()
        variables = list(var_list) if var_list is not None else list(tape.watched_variables())
        if not variables:
            raise ValueError("No variables to optimize.")
        return list(zip(tape.gradient(value, variables), variables))

    def apply_gradients(self, grads_and_vars, global_step=None, name: str | None = None):
        """Update each variable with its gradient (pairs whose gradient is None are
        skipped): in a graph an operation that does it each run, eagerly now.

        Raises:
            ValueError: When no variable has a gradient.
        """
        pairs = [(grad, var) for grad, var in grads_and_vars]
        for _, var in pairs:
            if not isinstance(var, Variable):
                raise TypeError(f"apply_gradients: {var!r} is not a tf.Variable")
        useful = [(grad, var) for grad, var in pairs if grad is not None]
        if not useful:
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[var.name for _, var in pairs]}.")
        graph = next((grad.graph for grad, _ in useful
                      if isinstance(grad, _graph.SymbolicTensor)), None)
        if graph is None:
            self._update(useful, global_step)
            return None
        grads = [grad for grad, _ in useful if isinstance(grad, _graph.SymbolicTensor)]
        return _graph.Operation(graph, name or self._name, "NoOp", grads, [],
                                _ApplyKernel(self, useful, global_step))

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients: int = 1,
                 aggregation_method=None, colocate_gradients_with_ops: bool = False,
                 name: str | None = None, grad_loss=None):
        """:meth:`compute_gradients` then :meth:`apply_gradients`."""
        pairs = self.compute_gradients(loss, var_list=var_list, grad_loss=grad_loss)
        return self.apply_gradients(pairs, global_step=global_step, name=name)

    # ---------------------------------------------------------------- updates
    def _update(self, pairs: list, global_step) -> None:
        self._steps += 1
        with ug.no_grad():
            for grad, var in pairs:
                slots = self._slots.setdefault(id(var), self._new_slots(var))
                var.assign(self._rule(var, grad, slots))
            if global_step is not None:
                global_step.assign_add(1)

    def _new_slots(self, var: Variable) -> dict:
        return {}

    def _rule(self, var: Variable, grad, slots: dict):
        """The variable's new value."""
        raise NotImplementedError


class GradientDescentOptimizer(Optimizer):
    """``var -= learning_rate * grad``."""

    def __init__(self, learning_rate: float, use_locking: bool = False,
                 name: str = "GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _rule(self, var, grad, slots):
        return var - self._learning_rate * grad


class MomentumOptimizer(Optimizer):
    """``accumulation = momentum * accumulation + grad``; ``var -= learning_rate *
    accumulation`` (Nesterov: ``var -= learning_rate * (grad + momentum * accumulation)``)."""

    def __init__(self, learning_rate: float, momentum: float, use_locking: bool = False,
                 name: str = "Momentum", use_nesterov: bool = False):
        super().__init__(use_locking, name)
        self._learning_rate, self._momentum = learning_rate, momentum
        self._nesterov = bool(use_nesterov)

    def _new_slots(self, var):
        return {"momentum": ug.zeros_like(var)}

    def _rule(self, var, grad, slots):
        accumulation = slots["momentum"] * self._momentum + grad
        slots["momentum"] = accumulation
        if self._nesterov:
            return var - self._learning_rate * (grad + self._momentum * accumulation)
        return var - self._learning_rate * accumulation


class AdamOptimizer(Optimizer):
    """TensorFlow 1's Adam: ``lr_t = learning_rate * sqrt(1 - beta2^t) / (1 - beta1^t)``;
    ``var -= lr_t * m / (sqrt(v) + epsilon)`` (epsilon outside the bias correction)."""

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, use_locking: bool = False, name: str = "Adam"):
        super().__init__(use_locking, name)
        self._learning_rate, self._beta1, self._beta2 = learning_rate, beta1, beta2
        self._epsilon = epsilon

    def _new_slots(self, var):
        dtype = var._data.dtype.type
        return {"m": ug.zeros_like(var), "v": ug.zeros_like(var),
                "beta1_power": dtype(self._beta1), "beta2_power": dtype(self._beta2)}

    def _rule(self, var, grad, slots):
        # TensorFlow 1's kernel, in the variable's precision: the beta powers are
        # variables multiplied after each step, the moments move by (g - m) * (1 - beta)
        dtype = var._data.dtype.type
        beta1_power, beta2_power = slots["beta1_power"], slots["beta2_power"]
        rate = dtype(self._learning_rate) * np.sqrt(dtype(1) - beta2_power) / \
            (dtype(1) - beta1_power)
        slots["m"] = slots["m"] + (grad - slots["m"]) * float(dtype(1) - dtype(self._beta1))
        slots["v"] = slots["v"] + (grad * grad - slots["v"]) * \
            float(dtype(1) - dtype(self._beta2))
        slots["beta1_power"] = beta1_power * dtype(self._beta1)
        slots["beta2_power"] = beta2_power * dtype(self._beta2)
        return var - slots["m"] * float(rate) / (ug.sqrt(slots["v"]) + self._epsilon)


class RMSPropOptimizer(Optimizer):
    """TensorFlow 1's RMSProp: the mean square starts at ones; ``mom = momentum * mom +
    learning_rate * grad / sqrt(ms + epsilon)``; ``var -= mom`` (``centered`` subtracts the
    squared mean gradient from ``ms``)."""

    def __init__(self, learning_rate: float, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False,
                 name: str = "RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate, self._decay, self._momentum = learning_rate, decay, momentum
        self._epsilon, self._centered = epsilon, bool(centered)

    def _new_slots(self, var):
        return {"ms": ug.ones_like(var), "mom": ug.zeros_like(var), "mg": ug.zeros_like(var)}

    def _rule(self, var, grad, slots):
        slots["ms"] = self._decay * slots["ms"] + (1 - self._decay) * grad * grad
        denominator = slots["ms"]
        if self._centered:
            slots["mg"] = self._decay * slots["mg"] + (1 - self._decay) * grad
            denominator = denominator - slots["mg"] * slots["mg"]
        slots["mom"] = self._momentum * slots["mom"] + \
            self._learning_rate * grad / ug.sqrt(denominator + self._epsilon)
        return var - slots["mom"]


class AdagradOptimizer(Optimizer):
    """``accumulator += grad ** 2``; ``var -= learning_rate * grad / sqrt(accumulator)``."""

    def __init__(self, learning_rate: float, initial_accumulator_value: float = 0.1,
                 use_locking: bool = False, name: str = "Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial = initial_accumulator_value

    def _new_slots(self, var):
        return {"accumulator": ug.full_like(var, self._initial)}

    def _rule(self, var, grad, slots):
        slots["accumulator"] = slots["accumulator"] + grad * grad
        return var - self._learning_rate * grad / ug.sqrt(slots["accumulator"])


_GLOBAL_STEPS: dict[int, Variable] = {}


def get_or_create_global_step(graph=None) -> Variable:
    """The graph's ``global_step`` variable (an int64 scalar, not trainable)."""
    owner = graph if graph is not None else _graph.get_default_graph()
    step = _GLOBAL_STEPS.get(id(owner))
    if step is None:
        with _graph.init_scope():
            step = _GLOBAL_STEPS[id(owner)] = Variable(ug.zeros((), dtype=ug.int64)._data,
                                                       trainable=False, name="global_step")
    return step
