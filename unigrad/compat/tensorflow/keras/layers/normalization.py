"""Keras 3's ``BatchNormalization`` and ``LayerNormalization``.

Both normalize ``(x - mean) / sqrt(variance + epsilon)`` (biased variance),
then scale by ``gamma`` and shift by ``beta``. Batch normalization uses the
batch's statistics when called with ``training=True`` on a trainable layer
(and moves ``moving_mean``/``moving_variance`` towards them by ``1 -
momentum``), the moving statistics otherwise.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.tensorflow as tf
    >>> layer = tf.keras.layers.BatchNormalization()
    >>> x = np.array([[1.0], [3.0]], np.float32)
    >>> layer(x, training=True).numpy().round(3)
    array([[-1.],
           [ 1.]], dtype=float32)
    >>> layer.moving_mean.numpy()
    array([0.02], dtype=float32)
"""

from __future__ import annotations

import unigrad as ug

from ..._tensor import as_tf
from .. import initializers, regularizers
from .base import Layer, in_symbolic_pass, reject_constraints
from .core import weight_config

__all__ = ["BatchNormalization", "LayerNormalization"]


def _axes(axis, rank: int) -> list[int]:
    axes = [axis] if isinstance(axis, int) else list(axis)
    for item in axes:
        if not -rank <= item < rank:
            raise ValueError(f"Invalid axis: {axis}. Expected a value in [-{rank}, {rank}).")
    return sorted(item % rank for item in axes)


def _moments(x, axes: tuple):
    mean = ug.mean(x, dim=axes, keepdim=True)
    variance = ug.mean(ug.square(x - mean), dim=axes, keepdim=True)
    return mean, variance


def _normalize(x, mean, variance, gamma, beta, epsilon: float):
    """``(x - mean) * rsqrt(variance + epsilon) * gamma + beta`` in Keras' order."""
    inverse = ug.rsqrt(variance + epsilon)
    if gamma is not None:
        inverse = inverse * gamma
    shift = -mean * inverse
    if beta is not None:
        shift = shift + beta
    return x * inverse + shift


class _Normalization(Layer):
    """The weights shared by both normalizations: ``gamma`` (scale) and ``beta`` (center)."""

    def _add_affine(self, shape: tuple) -> None:
        self.gamma = self.add_weight(shape=shape, name="gamma",
                                     initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer) if self.scale else None
        self.beta = self.add_weight(shape=shape, name="beta",
                                    initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer) if self.center else None

    def _broadcast(self, weight, rank: int):
        if weight is None:
            return None
        shape = [1] * rank
        for axis, size in zip(self._axes, weight.shape):
            shape[axis] = size
        return ug.reshape(weight, shape)

    def _affine_config(self) -> dict:
        return weight_config(self, axis=self.axis, epsilon=self.epsilon, center=self.center,
                             scale=self.scale, beta_initializer=self.beta_initializer,
                             gamma_initializer=self.gamma_initializer,
                             beta_regularizer=self.beta_regularizer,
                             gamma_regularizer=self.gamma_regularizer, beta_constraint=None,
                             gamma_constraint=None)


class BatchNormalization(_Normalization):
    """Normalizes each feature (the ``axis`` entries) over the other axes
    (``tf.keras.layers.BatchNormalization``).

    Weights: ``gamma``, ``beta`` (trainable), ``moving_mean``, ``moving_variance``
    (not trainable). ``renorm`` and ``synchronized`` are not supported
    (NotImplementedError).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.BatchNormalization(name="bn")
        >>> layer.build((None, 3))
        >>> [variable.path for variable in layer.non_trainable_weights]
        ['bn/moving_mean', 'bn/moving_variance']
    """

    def __init__(self, axis=-1, momentum: float = 0.99, epsilon: float = 0.001,
                 center: bool = True, scale: bool = True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 renorm: bool = False, renorm_clipping=None, renorm_momentum: float = 0.99,
                 synchronized: bool = False, **kwargs) -> None:
        reject_constraints("BatchNormalization", beta_constraint=beta_constraint,
                           gamma_constraint=gamma_constraint)
        if renorm or synchronized:
            raise NotImplementedError("BatchNormalization: `renorm` and `synchronized` are "
                                      "not supported by unigrad's Keras layers")
        super().__init__(**kwargs)
        self.axis = axis
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)

    def build(self, input_shape) -> None:
        self._axes = _axes(self.axis, len(input_shape))
        shape = tuple(input_shape[axis] for axis in self._axes)
        self._add_affine(shape)
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean",
                                           initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight(shape=shape, name="moving_variance",
                                               initializer=self.moving_variance_initializer,
                                               trainable=False)

    def call(self, inputs, training=None, mask=None):
        rank = inputs.ndim
        reduction = tuple(axis for axis in range(rank) if axis not in self._axes)
        moving_mean = self._broadcast(self.moving_mean, rank)
        moving_variance = self._broadcast(self.moving_variance, rank)
        if training and self.trainable:
            mean, variance = _moments(inputs, reduction)
            if not in_symbolic_pass():
                self._update_moving_statistics(moving_mean, moving_variance, mean, variance)
        else:
            mean, variance = moving_mean, moving_variance
        return as_tf(_normalize(inputs, mean, variance, self._broadcast(self.gamma, rank),
                                self._broadcast(self.beta, rank), self.epsilon))

    def _update_moving_statistics(self, moving_mean, moving_variance, mean, variance) -> None:
        """Move the moving statistics towards the batch's by ``1 - momentum``."""
        with ug.no_grad():
            self.moving_mean.assign(ug.reshape(
                moving_mean * self.momentum + mean * (1.0 - self.momentum),
                tuple(self.moving_mean.shape)))
            self.moving_variance.assign(ug.reshape(
                moving_variance * self.momentum + variance * (1.0 - self.momentum),
                tuple(self.moving_variance.shape)))

    def get_config(self) -> dict:
        return {**self._affine_config(), "momentum": self.momentum,
                "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
                "moving_variance_initializer": initializers.serialize(
                    self.moving_variance_initializer),
                "synchronized": False, "renorm": False}


class LayerNormalization(_Normalization):
    """Normalizes each sample over ``axis`` (``tf.keras.layers.LayerNormalization``);
    ``rms_scaling=True`` divides by the root mean square instead (no centering).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.LayerNormalization(epsilon=0.0)
        >>> layer(tf.constant([[1.0, 3.0]])).numpy()
        array([[-1.,  1.]], dtype=float32)
    """

    def __init__(self, axis=-1, epsilon: float = 0.001, center: bool = True,
                 scale: bool = True, beta_initializer="zeros", gamma_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs) -> None:
        reject_constraints("LayerNormalization", beta_constraint=beta_constraint,
                           gamma_constraint=gamma_constraint)
        self.rms_scaling = kwargs.pop("rms_scaling", False)
        super().__init__(**kwargs)
        self.axis = axis
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)

    def build(self, input_shape) -> None:
        self._axes = _axes(self.axis, len(input_shape))
        self._add_affine(tuple(input_shape[axis] for axis in self._axes))

    def call(self, inputs):
        rank = inputs.ndim
        axes = tuple(self._axes)
        gamma, beta = self._broadcast(self.gamma, rank), self._broadcast(self.beta, rank)
        if self.rms_scaling:
            scale = ug.rsqrt(ug.mean(ug.square(inputs), dim=axes, keepdim=True) + self.epsilon)
            return as_tf(inputs * scale * gamma if gamma is not None else inputs * scale)
        mean, variance = _moments(inputs, axes)
        return as_tf(_normalize(inputs, mean, variance, gamma, beta, self.epsilon))

    def get_config(self) -> dict:
        return {**self._affine_config(), "rms_scaling": self.rms_scaling}
