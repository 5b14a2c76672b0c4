"""Keras 3's core layers: ``Dense``, ``Activation``, ``Flatten``, ``Reshape``, ``Dropout``,
``Embedding``.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.tensorflow as tf
    >>> layer = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones")
    >>> layer(np.array([[1.0, -3.0]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0., 0.]], dtype=float32)>
"""

from __future__ import annotations

import math

import unigrad as ug
import unigrad.nn.functional as F

from ..._tensor import as_tf
from .. import activations, initializers, regularizers
from .base import Layer, reject_constraints, shape_of

__all__ = ["Dense", "Activation", "Flatten", "Reshape", "Dropout", "Embedding"]


def check_last_axis(layer: Layer, inputs, expected: int) -> None:
    """Keras' input-spec error when the last axis of ``inputs`` is not ``expected``.

    Raises:
        ValueError: When the last axis differs.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Dense(1, name="checked")
        >>> check_last_axis(layer, np.ones((1, 3)), 3)
        >>> try:
        ...     check_last_axis(layer, np.ones((1, 2)), 3)
        ... except ValueError as error:
        ...     print(str(error)[-48:])
        ve value 3, but received input with shape (1, 2)
    """
    shape = shape_of(inputs)
    if shape and shape[-1] is not None and shape[-1] != expected:
        raise ValueError(f"Input 0 with name 'None' of layer '{layer.name}' is incompatible "
                         f"with the layer: expected axis -1 of input shape to have value "
                         f"{expected}, but received input with shape {tuple(shape)}")


def weight_config(layer: Layer, **entries) -> dict:
    """``layer``'s base config plus ``entries`` with initializers and regularizers
    serialized as Keras does.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Dense(1, name="configured")
        >>> config = weight_config(layer, bias_initializer=layer.bias_initializer)
        >>> config["bias_initializer"]["class_name"], config["name"]
        ('Zeros', 'configured')
    """
    config = Layer.get_config(layer)
    for key, value in entries.items():
        if key.endswith("_initializer"):
            value = initializers.serialize(value)
        elif key.endswith("_regularizer"):
            value = regularizers.serialize(value)
        elif key == "activation":
            value = activations.serialize(value)
        config[key] = value
    return config


class Dense(Layer):
    """``activation(inputs @ kernel + bias)`` over the last axis (``tf.keras.layers.Dense``).

    Weights: ``kernel`` of shape ``(input_dim, units)`` and ``bias`` of shape ``(units,)``.

    Raises:
        ValueError: When ``units`` is not a positive integer, or an input's last axis
            differs from the one the layer was built for.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Dense(1, name="dense_example")
        >>> layer.build((None, 2))
        >>> layer.set_weights([np.array([[1.0], [2.0]]), np.array([0.5])])
        >>> layer(np.array([[1.0, 1.0]])).numpy()
        array([[3.5]], dtype=float32)
    """

    def __init__(self, units: int, activation=None, use_bias: bool = True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None,
                 quantization_config=None, **kwargs) -> None:
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        reject_constraints("Dense", kernel_constraint=kernel_constraint,
                           bias_constraint=bias_constraint)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.quantization_config = quantization_config

    def build(self, input_shape) -> None:
        self.kernel = self.add_weight(name="kernel", shape=(input_shape[-1], self.units),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.bias = self.add_weight(name="bias", shape=(self.units,),
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None

    def call(self, inputs):
        check_last_axis(self, inputs, self.kernel.shape[0])
        outputs = ug.matmul(inputs, self.kernel)
        if self.bias is not None:
            outputs = outputs + self.bias
        return as_tf(self.activation(outputs))

    def get_config(self) -> dict:
        return weight_config(
            self, units=self.units, activation=self.activation, use_bias=self.use_bias,
            kernel_initializer=self.kernel_initializer, bias_initializer=self.bias_initializer,
            kernel_regularizer=self.kernel_regularizer, bias_regularizer=self.bias_regularizer,
            kernel_constraint=None, bias_constraint=None,
            quantization_config=self.quantization_config)


class Activation(Layer):
    """Applies an activation function (a name or a callable) to its input.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Activation("relu")(tf.constant([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
    """

    def __init__(self, activation, **kwargs) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return as_tf(self.activation(inputs))

    def get_config(self) -> dict:
        return weight_config(self, activation=self.activation)


class Flatten(Layer):
    """Reshapes each sample to one dimension: ``(batch, ...)`` -> ``(batch, product)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Flatten()(tf.ones((2, 3, 4))).shape
        TensorShape([2, 12])
    """

    def __init__(self, data_format=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        if self.data_format == "channels_first" and inputs.ndim > 2:
            inputs = ug.movedim(inputs, 1, -1)
        return as_tf(ug.reshape(inputs, (inputs.shape[0], math.prod(inputs.shape[1:]))))

    def get_config(self) -> dict:
        return {**Layer.get_config(self), "data_format": self.data_format}


class Reshape(Layer):
    """Reshapes each sample to ``target_shape`` (one entry may be -1).

    Raises:
        ValueError: When the sample size does not fit ``target_shape``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.Reshape((3, -1))(tf.ones((2, 6))).shape
        TensorShape([2, 3, 2])
    """

    def __init__(self, target_shape, **kwargs) -> None:
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        size = math.prod(inputs.shape[1:])
        known = math.prod(dimension for dimension in self.target_shape if dimension != -1)
        if (-1 in self.target_shape and (known == 0 or size % known)) or (
                -1 not in self.target_shape and known != size):
            raise ValueError(f"The total size of the tensor must be unchanged. Received: "
                             f"input_shape={tuple(inputs.shape[1:])}, "
                             f"target_shape={self.target_shape}")
        return as_tf(ug.reshape(inputs, (inputs.shape[0], *self.target_shape)))

    def get_config(self) -> dict:
        return {**Layer.get_config(self), "target_shape": self.target_shape}


class Dropout(Layer):
    """Zeroes a fraction ``rate`` of the inputs and scales the rest by ``1 / (1 - rate)``, only
    when called with ``training=True``.

    Raises:
        ValueError: For a ``rate`` outside ``[0, 1]``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Dropout(0.5)
        >>> layer(tf.ones((2,))).numpy()
        array([1., 1.], dtype=float32)
        >>> sorted(set(layer(tf.ones((100,)), training=True).numpy().tolist()))
        [0.0, 2.0]
    """

    def __init__(self, rate: float, noise_shape=None, seed=None, **kwargs) -> None:
        if not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        super().__init__(**kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        if self.noise_shape is None:
            return as_tf(F.dropout(inputs, p=float(self.rate), training=True))
        noise_shape = tuple(size if size is not None else inputs.shape[axis]
                            for axis, size in enumerate(self.noise_shape))
        keep = ug.bernoulli(ug.full(noise_shape, 1.0 - self.rate))
        return as_tf(inputs * keep / (1.0 - self.rate))

    def get_config(self) -> dict:
        return {**Layer.get_config(self), "rate": self.rate, "seed": self.seed,
                "noise_shape": self.noise_shape}


class Embedding(Layer):
    """Maps integer ids to rows of ``embeddings`` (shape ``(input_dim, output_dim)``).

    ``mask_zero=True`` (Keras' masks) is not supported (NotImplementedError).

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Embedding(3, 2, embeddings_initializer="ones")
        >>> layer(np.array([[0, 2]])).shape
        TensorShape([1, 2, 2])
    """

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None,
                 mask_zero: bool = False, weights=None, lora_rank=None, lora_alpha=None,
                 quantization_config=None, **kwargs) -> None:
        if mask_zero:
            raise NotImplementedError("Embedding: `mask_zero=True` (Keras masking) is not "
                                      "supported by unigrad's Keras layers")
        reject_constraints("Embedding", embeddings_constraint=embeddings_constraint)
        input_length = kwargs.pop("input_length", None)
        del input_length
        super().__init__(**kwargs)
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.mask_zero = mask_zero
        self._initial_weights = weights

    def build(self, input_shape=None) -> None:
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          name="embeddings")
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)

    def call(self, inputs):
        return as_tf(F.embedding(ug.cast(inputs, ug.int64), self.embeddings))

    def get_config(self) -> dict:
        return weight_config(self, input_dim=self.input_dim, output_dim=self.output_dim,
                             embeddings_initializer=self.embeddings_initializer,
                             embeddings_regularizer=self.embeddings_regularizer,
                             activity_regularizer=self.activity_regularizer,
                             embeddings_constraint=None, mask_zero=self.mask_zero,
                             quantization_config=None)
