"""Keras 3's pooling layers (channels last by default).

``MaxPooling1D/2D`` and ``AveragePooling1D/2D`` take ``pool_size``, ``strides``
(default: ``pool_size``) and ``padding``; ``"same"`` pads as TensorFlow does
and an average counts only the real (unpadded) elements. The global poolings
reduce the spatial axes.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.tensorflow as tf
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    >>> tf.keras.layers.MaxPooling2D()(x).numpy()[0, :, :, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
"""

from __future__ import annotations

import unigrad as ug
import unigrad.nn.functional as F

from ..._tensor import as_tf
from .base import Layer
from .convolutional import check_padding, normalize_tuple, same_padding

__all__ = ["MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D",
           "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D",
           "GlobalMaxPooling2D"]


class _Pooling(Layer):
    """Windowed pooling over the spatial axes (``rank`` of them)."""

    rank = 2
    mode = "max"

    def __init__(self, pool_size, strides=None, padding: str = "valid", data_format=None,
                 name=None, **kwargs) -> None:
        super().__init__(name=name, **kwargs)
        self.pool_size = normalize_tuple(pool_size, self.rank, "pool_size")
        self.strides = normalize_tuple(strides if strides is not None else pool_size,
                                       self.rank, "strides")
        self.padding = check_padding(padding, ("valid", "same"))
        self.data_format = data_format or "channels_last"

    def _pool(self, x, pads: list):
        """Pool NC... ``x`` padded by ``pads`` (pairs per spatial axis)."""
        flat_pads = [size for pair in reversed(pads) for size in pair]
        pool = {(1, "max"): F.max_pool1d, (2, "max"): F.max_pool2d,
                (1, "avg"): F.avg_pool1d, (2, "avg"): F.avg_pool2d}[(self.rank, self.mode)]
        if self.mode == "max":
            if any(flat_pads):
                x = F.pad(x, flat_pads, value=float("-inf"))
            return pool(x, self.pool_size, self.strides)
        if not any(flat_pads):
            return pool(x, self.pool_size, self.strides)
        ones = ug.ones_like(x[:1, :1])
        total = pool(F.pad(x, flat_pads), self.pool_size, self.strides)
        count = pool(F.pad(ones, flat_pads), self.pool_size, self.strides)
        return total / count

    def call(self, inputs):
        channels_last = self.data_format == "channels_last"
        x = ug.movedim(inputs, -1, 1) if channels_last else inputs
        pads = [(0, 0)] * self.rank if self.padding == "valid" else [
            same_padding(size, kernel, stride) for size, kernel, stride
            in zip(x.shape[2:], self.pool_size, self.strides)]
        outputs = self._pool(x, pads)
        return as_tf(ug.movedim(outputs, 1, -1) if channels_last else outputs)

    def get_config(self) -> dict:
        return {**Layer.get_config(self), "pool_size": self.pool_size, "padding": self.padding,
                "strides": self.strides, "data_format": self.data_format}


class MaxPooling2D(_Pooling):
    """The maximum over ``pool_size`` windows of ``(batch, height, width, channels)``
    inputs.

    Raises:
        ValueError: For a bad ``pool_size``, ``strides`` or ``padding``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.MaxPooling2D(padding="same")(tf.ones((1, 3, 3, 1))).shape
        TensorShape([1, 2, 2, 1])
    """

    def __init__(self, pool_size=(2, 2), strides=None, padding: str = "valid",
                 data_format=None, name=None, **kwargs) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling2D(_Pooling):
    """The mean over ``pool_size`` windows (padding excluded from the count).

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> x = np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1)
        >>> tf.keras.layers.AveragePooling2D(2, padding="same")(x).numpy()[0, :, :, 0]
        array([[2. , 3.5],
               [6.5, 8. ]], dtype=float32)
    """

    mode = "avg"

    def __init__(self, pool_size, strides=None, padding: str = "valid", data_format=None,
                 name=None, **kwargs) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class MaxPooling1D(_Pooling):
    """The maximum over windows of ``(batch, steps, channels)`` inputs.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> x = np.array([1.0, 3.0, 2.0, 5.0], np.float32).reshape(1, 4, 1)
        >>> tf.keras.layers.MaxPooling1D()(x).numpy().ravel()
        array([3., 5.], dtype=float32)
    """

    rank = 1

    def __init__(self, pool_size=2, strides=None, padding: str = "valid", data_format=None,
                 name=None, **kwargs) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling1D(_Pooling):
    """The mean over windows of ``(batch, steps, channels)`` inputs.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> x = np.array([1.0, 3.0, 2.0, 5.0], np.float32).reshape(1, 4, 1)
        >>> tf.keras.layers.AveragePooling1D(2)(x).numpy().ravel()
        array([2. , 3.5], dtype=float32)
    """

    rank = 1
    mode = "avg"

    def __init__(self, pool_size, strides=None, padding: str = "valid", data_format=None,
                 name=None, **kwargs) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class _GlobalPooling(Layer):
    """A reduction over every spatial axis."""

    rank = 2
    reduce = staticmethod(ug.mean)

    def __init__(self, data_format=None, keepdims: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.keepdims = keepdims

    def call(self, inputs):
        first = 1 if self.data_format == "channels_last" else 2
        axes = tuple(range(first, first + self.rank))
        result = self.reduce(inputs, dim=axes, keepdim=self.keepdims)
        return as_tf(result.values if hasattr(result, "values") else result)

    def get_config(self) -> dict:
        return {**Layer.get_config(self), "data_format": self.data_format,
                "keepdims": self.keepdims}


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over height and width: ``(batch, h, w, c)`` -> ``(batch, c)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.GlobalAveragePooling2D()(tf.ones((2, 3, 3, 4))).shape
        TensorShape([2, 4])
    """


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps: ``(batch, steps, c)`` -> ``(batch, c)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.GlobalAveragePooling1D()(tf.ones((2, 5, 3))).shape
        TensorShape([2, 3])
    """

    rank = 1


class GlobalMaxPooling2D(_GlobalPooling):
    """The maximum over height and width.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.GlobalMaxPooling2D(keepdims=True)(tf.ones((2, 3, 3, 4))).shape
        TensorShape([2, 1, 1, 4])
    """

    reduce = staticmethod(ug.amax)


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.GlobalMaxPooling1D()(tf.ones((2, 5, 3))).shape
        TensorShape([2, 3])
    """

    rank = 1
    reduce = staticmethod(ug.amax)
