"""``mindspore.train`` metrics: ``Metric`` and ``Accuracy``, ``Loss``, ``MAE``, ``MSE``.

A metric accumulates batches with ``update(*inputs)`` (Tensors or arrays), reports
with ``eval()`` and restarts with ``clear()``; ``Model.eval`` drives them with
``(network output, label)``.

Example:
    >>> import numpy as np
    >>> from unigrad.compat.mindspore.train import Accuracy
    >>> metric = Accuracy()
    >>> metric.update(np.array([[0.2, 0.8], [0.9, 0.1]]), np.array([1, 1]))
    >>> print(metric.eval())
    0.5
"""

from __future__ import annotations

import numpy as np

from ....tensor import Tensor as _UgTensor

__all__ = ["Metric", "Accuracy", "Loss", "MAE", "MSE"]


def _numpy(value) -> np.ndarray:
    """A Tensor, list or number as an ndarray."""
    if isinstance(value, _UgTensor):
        return value.asnumpy()
    if isinstance(value, (np.ndarray, list, tuple, int, float, np.number)):
        return np.asarray(value)
    raise TypeError(f"The input data type must be a tensor, list or numpy.ndarray, but got "
                    f"{type(value)}.")


class Metric:
    """Base of the metrics: subclasses define ``clear``, ``update(*inputs)`` and ``eval``;
    ``_convert_data`` turns an input into an ndarray."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data) -> np.ndarray:
        return _numpy(data)

    def clear(self) -> None:
        raise NotImplementedError("Must define clear function to use this base class")

    def update(self, *inputs) -> None:
        raise NotImplementedError("Must define update function to use this base class")

    def eval(self):
        raise NotImplementedError("Must define eval function to use this base class")

    def set_indexes(self, indexes: list[int]) -> Metric:
        """Which of ``Model.eval``'s ``(output, label)`` values ``update`` receives."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' should be a list and "
                             "all its elements should be int, please check whether it is "
                             "correct.")
        self._indexes = indexes
        return self

    @property
    def indexes(self) -> list[int] | None:
        return self._indexes


def _check_count(name: str, inputs: tuple, count: int) -> None:
    if len(inputs) != count:
        raise ValueError(f"For '{name}.update', it needs {count} inputs (predicted value, true "
                         f"value), but got {len(inputs)}.")


def _nothing_to_eval(name: str) -> RuntimeError:
    return RuntimeError(f"The '{name}' can not be calculated, because the number of samples is "
                        f"0, please check whether your inputs(predicted value, true value) are "
                        f"empty, or has called update method before calling eval method.")


class Accuracy(Metric):
    """``Accuracy(eval_type='classification')``: the fraction of samples whose arg-max
    prediction equals the label (labels as indices or one-hot rows); ``'multilabel'``
    compares rounded predictions row by row.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import Accuracy
        >>> metric = Accuracy()
        >>> metric.update(np.array([[0.1, 0.9], [0.7, 0.3], [0.4, 0.6]]), np.array([1, 0, 0]))
        >>> print(round(metric.eval(), 4))
        0.6667
    """

    def __init__(self, eval_type: str = "classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"For 'Accuracy', the argument 'eval_type' must be in "
                             f"['classification', 'multilabel'], but got {eval_type}.")
        self.eval_type = eval_type
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._total_num = 0

    def update(self, *inputs) -> None:
        _check_count("Accuracy", inputs, 2)
        predictions, labels = (self._convert_data(value) for value in inputs)
        if self.eval_type == "multilabel":
            correct = np.all(np.round(predictions) == labels, axis=-1)
        else:
            if labels.ndim == predictions.ndim:
                labels = labels.argmax(axis=1)
            correct = predictions.argmax(axis=1) == labels
        self._correct_num += int(np.sum(correct))
        self._total_num += correct.shape[0]

    def eval(self) -> np.float64:
        if self._total_num == 0:
            raise _nothing_to_eval("Accuracy")
        return np.float64(self._correct_num / self._total_num)


class Loss(Metric):
    """``Loss()``: the average of the losses passed to ``update`` (one per batch).

    Example:
        >>> from unigrad.compat.mindspore.train import Loss
        >>> metric = Loss()
        >>> metric.update(1.0); metric.update(2.0)
        >>> print(metric.eval())
        1.5
    """

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._sum_loss = 0.0
        self._total_num = 0

    def update(self, *inputs) -> None:
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got "
                             f"{len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim > 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 0 "
                             f"or 1, but got {loss.ndim}.")
        self._sum_loss += float(np.mean(loss))
        self._total_num += 1

    def eval(self) -> np.float64:
        if self._total_num == 0:
            raise _nothing_to_eval("Loss")
        return np.float64(self._sum_loss / self._total_num)


class _ErrorMetric(Metric):
    """Sum of an elementwise error over the samples, divided by their number."""

    _name = ""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._error_sum = 0.0
        self._samples_num = 0

    def _error(self, difference: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def update(self, *inputs) -> None:
        _check_count(self._name, inputs, 2)
        predictions, labels = (self._convert_data(value) for value in inputs)
        difference = labels.reshape(predictions.shape) - predictions
        self._error_sum += float(self._error(difference).sum())
        self._samples_num += labels.shape[0]

    def eval(self) -> np.float64:
        if self._samples_num == 0:
            raise _nothing_to_eval(self._name)
        return np.float64(self._error_sum / self._samples_num)


class MAE(_ErrorMetric):
    """``MAE()``: mean absolute error, ``sum(|y - y_pred|) / number of samples``.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import MAE
        >>> metric = MAE()
        >>> metric.update(np.array([0.5, 2.0]), np.array([1.0, 1.0]))
        >>> print(metric.eval())
        0.75
    """

    _name = "MAE"

    def _error(self, difference: np.ndarray) -> np.ndarray:
        return np.abs(difference)


class MSE(_ErrorMetric):
    """``MSE()``: mean squared error, ``sum((y - y_pred)**2) / number of samples``.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import MSE
        >>> metric = MSE()
        >>> metric.update(np.array([0.5, 2.0]), np.array([1.0, 1.0]))
        >>> print(metric.eval())
        0.625
    """

    _name = "MSE"

    def _error(self, difference: np.ndarray) -> np.ndarray:
        return np.square(difference)
