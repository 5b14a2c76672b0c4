"""``tf.keras.layers``: Keras 3's layers over unigrad.

Layers build their weights on the first call, compute with unigrad's ops (so
``tf.GradientTape`` differentiates them) and record a functional graph when
called on ``tf.keras.Input`` tensors.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.keras.layers.Dense(3)(tf.ones((2, 5))).shape
    TensorShape([2, 3])
"""

from .base import KerasTensor, KerasVariable, Layer
from .convolutional import Conv1D, Conv2D
from .core import Activation, Dense, Dropout, Embedding, Flatten, Reshape
from .input_layer import Input, InputLayer
from .merging import Add, Average, Concatenate, Maximum, Minimum, Multiply, Subtract
from .normalization import BatchNormalization, LayerNormalization
from .pooling import (
    AveragePooling1D,
    AveragePooling2D,
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
    MaxPooling1D,
    MaxPooling2D,
)
from .recurrent import GRU, LSTM, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell

__all__ = ["Layer", "KerasTensor", "KerasVariable", "Dense", "Activation", "Flatten",
           "Reshape", "Dropout", "Embedding", "InputLayer", "Input", "Conv1D", "Conv2D",
           "MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D",
           "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D",
           "GlobalMaxPooling2D", "BatchNormalization", "LayerNormalization", "Concatenate",
           "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "SimpleRNN", "LSTM",
           "GRU", "SimpleRNNCell", "LSTMCell", "GRUCell"]
