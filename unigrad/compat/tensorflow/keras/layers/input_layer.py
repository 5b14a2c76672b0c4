"""Keras' ``Input`` and ``InputLayer``: the symbolic inputs of functional models.

``keras.Input(shape=(3,))`` is a :class:`~.base.KerasTensor` of shape
``(None, 3)`` made by an ``InputLayer``; calling layers on it records the graph
that ``keras.Model(inputs, outputs)`` replays on real tensors.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> x = tf.keras.Input(shape=(4,), name="features")
    >>> x
    <KerasTensor shape=(None, 4), dtype=float32, sparse=False, ragged=False, name=features>
    >>> tf.keras.layers.Dense(2)(x).shape
    (None, 2)
"""

from __future__ import annotations

import numpy as np

from .base import KerasTensor, Layer, Node

__all__ = ["InputLayer", "Input"]


def _batch_shape(shape, batch_size, batch_shape) -> tuple:
    if shape is not None and batch_shape is not None:
        raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
    if batch_size is not None and batch_shape is not None:
        raise ValueError("You cannot pass both `batch_size` and `batch_shape` at the same time.")
    if shape is None and batch_shape is None:
        raise ValueError("You must pass a `shape` argument.")
    if batch_shape is not None:
        return tuple(batch_shape)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return (batch_size, *shape)


class InputLayer(Layer):
    """The layer behind :func:`Input`: it holds the symbolic input tensor (``output``).

    Raises:
        ValueError: When neither or both of ``shape`` and ``batch_shape`` are given.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.InputLayer(shape=(3,), name="in")
        >>> layer.name, layer.batch_shape, layer.output.shape
        ('in', (None, 3), (None, 3))
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None, ragged=None,
                 batch_shape=None, input_tensor=None, optional=False, name=None, **kwargs):
        if sparse or ragged:
            raise NotImplementedError("InputLayer: sparse and ragged inputs are not supported "
                                      "by unigrad's Keras layers")
        kwargs.pop("input_shape", None)
        super().__init__(name=name, **kwargs)
        self.batch_shape = _batch_shape(shape, batch_size, batch_shape)
        self._dtype = np.dtype(getattr(dtype, "name", dtype) or "float32").name
        self.sparse = False
        self.ragged = False
        self.optional = optional
        tensor = input_tensor if input_tensor is not None else KerasTensor(
            self.batch_shape, self._dtype, name=name)
        self._inbound_nodes.append(Node(self, (), {}, tensor))
        tensor._keras_history = (self, 0, 0)
        self.built = True

    @property
    def dtype(self) -> str:
        return self._dtype

    def call(self, inputs):
        return inputs

    def get_config(self) -> dict:
        return {"batch_shape": self.batch_shape, "dtype": self._dtype, "sparse": False,
                "ragged": False, "name": self.name, "optional": self.optional}


def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None,  # noqa: N802
          batch_shape=None, name=None, tensor=None, optional=False) -> KerasTensor:
    """A symbolic input tensor (``tf.keras.Input``): ``shape`` excludes the batch axis.

    Raises:
        ValueError: When neither or both of ``shape`` and ``batch_shape`` are given.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.Input(shape=(2,), batch_size=5, dtype="int32").shape
        (5, 2)
    """
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse,
                       ragged=ragged, batch_shape=batch_shape, input_tensor=tensor,
                       optional=optional, name=name)
    return layer.output
