"""Keras 3's merging layers: ``Concatenate``, ``Add``, ``Subtract``, ``Multiply``,
``Average``, ``Maximum``, ``Minimum``; each takes a list of tensors.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.keras.layers.Concatenate()([tf.ones((1, 2)), tf.zeros((1, 1))]).numpy()
    array([[1., 1., 0.]], dtype=float32)
"""

from __future__ import annotations

import functools

import unigrad as ug

from ..._tensor import as_tf
from .base import Layer

__all__ = ["Concatenate", "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"]


def _check_list(layer: Layer, inputs, minimum: int = 1) -> list:
    if not isinstance(inputs, (list, tuple)) or len(inputs) < minimum:
        raise ValueError(f"A merge layer should be called on a list of at least {minimum} "
                         f"inputs. Received: input_shape={_shapes(inputs)}")
    return list(inputs)


def _shapes(inputs):
    if isinstance(inputs, (list, tuple)):
        return [tuple(item.shape) for item in inputs]
    return tuple(inputs.shape)


class Concatenate(Layer):
    """Concatenates the inputs along ``axis``.

    Raises:
        ValueError: When the inputs are fewer than two.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Concatenate(axis=0)([tf.ones((1, 2)), tf.ones((2, 2))]).shape
        TensorShape([3, 2])
    """

    def __init__(self, axis: int = -1, **kwargs) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return as_tf(ug.cat(_check_list(self, inputs), dim=self.axis))

    def get_config(self) -> dict:
        return {**Layer.get_config(self), "axis": self.axis}


class _Merge(Layer):
    """An elementwise merge: ``combine`` folded over the inputs (broadcasting)."""

    minimum_inputs = 1

    @staticmethod
    def combine(left, right):
        raise NotImplementedError

    def call(self, inputs):
        return as_tf(functools.reduce(type(self).combine,
                                      _check_list(self, inputs, self.minimum_inputs)))


class Add(_Merge):
    """The elementwise sum of the inputs.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Add()([tf.ones((2,)), tf.ones((2,)), tf.ones((2,))]).numpy()
        array([3., 3.], dtype=float32)
    """

    combine = staticmethod(ug.add)


class Multiply(_Merge):
    """The elementwise product of the inputs.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Multiply()([tf.constant([2.0]), tf.constant([3.0])]).numpy()
        array([6.], dtype=float32)
    """

    combine = staticmethod(ug.mul)


class Maximum(_Merge):
    """The elementwise maximum of the inputs.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Maximum()([tf.constant([2.0]), tf.constant([3.0])]).numpy()
        array([3.], dtype=float32)
    """

    combine = staticmethod(ug.maximum)


class Minimum(_Merge):
    """The elementwise minimum of the inputs.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Minimum()([tf.constant([2.0]), tf.constant([3.0])]).numpy()
        array([2.], dtype=float32)
    """

    combine = staticmethod(ug.minimum)


class Subtract(Layer):
    """The first input minus the second (exactly two inputs).

    Raises:
        ValueError: For another number of inputs.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Subtract()([tf.constant([5.0]), tf.constant([3.0])]).numpy()
        array([2.], dtype=float32)
    """

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return as_tf(inputs[0] - inputs[1])


class Average(_Merge):
    """The elementwise mean of the inputs.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Average()([tf.constant([2.0]), tf.constant([4.0])]).numpy()
        array([3.], dtype=float32)
    """

    combine = staticmethod(ug.add)

    def call(self, inputs):
        return as_tf(super().call(inputs) / len(inputs))
