"""``tf.keras`` (Keras 3's API over unigrad): layers, models, training, optimizers.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.keras.optimizers.SGD(learning_rate=0.5).learning_rate
    <tf.Variable 'learning_rate:0' shape=() dtype=float32, numpy=0.5>
"""

from . import (
    activations,
    backend,
    callbacks,
    initializers,
    layers,
    losses,
    metrics,
    models,
    optimizers,
    regularizers,
)
from .models import *  # noqa: F403 - Model, Sequential, Input

__all__ = ["activations", "backend", "callbacks", "initializers", "layers", "losses", "metrics",
           "models", "optimizers", "regularizers", *models.__all__]
