"""More ``mindspore.train`` metrics: ``Fbeta``/``F1``, ``Precision``, ``Recall``,
``TopKCategoricalAccuracy`` (``Top1``/``Top5``), ``Perplexity`` and ``Dice``, computed in
NumPy as MindSpore computes them (``update(y_pred, y)`` per batch, ``eval()``).

Example:
    >>> import numpy as np
    >>> from unigrad.compat.mindspore.train import F1
    >>> metric = F1()
    >>> metric.update(np.array([[0.2, 0.8], [0.9, 0.1]]), np.array([1, 1]))
    >>> print(metric.eval())
    [0.         0.66666667]
"""

from __future__ import annotations

import math
import sys

import numpy as np

from .metrics import Metric, _check_count, _nothing_to_eval

__all__ = ["Fbeta", "F1", "Precision", "Recall", "TopKCategoricalAccuracy",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Perplexity", "Dice",
           "ConfusionMatrix", "ROC", "auc"]

_EPS = sys.float_info.min


def _selected(metric: Metric, inputs: tuple) -> tuple:
    """The inputs ``set_indexes`` picked (all of them when it was not called)."""
    indexes = metric.indexes
    return tuple(inputs[index] for index in indexes) if indexes else inputs


def _is_one_hot(labels: np.ndarray) -> bool:
    """Whether ``labels`` are one-hot rows along axis 1 (0/1 values summing to one)."""
    if labels.ndim > 1 and np.equal(labels ** 2, labels).all():
        return bool(np.equal(labels.sum(axis=1), 1).all())
    return False


def _no_samples(name: str) -> RuntimeError:
    return RuntimeError(f"The '{name}' can not be calculated, because the number of samples is "
                        f"0, please check whether your inputs (predicted value, true value) "
                        f"are empty, or has called update method before calling eval method.")


def _check_average(owner: str, average) -> None:
    if not isinstance(average, bool):
        raise TypeError(f"For '{owner}', the type of 'average' should be 'bool', but got type "
                        f"'{type(average).__name__}'.")


class _ClassCounts(Metric):
    """Per-class counts of arg-max predictions against index or one-hot labels."""

    _name = ""
    _mismatch_end = "."  # MindSpore's message for a changed class count ends so

    def _too_many_classes(self, label_classes) -> ValueError:
        return ValueError(f"For '{self._name}.update', predicted value (input[0]) should have "
                          f"the same classes number as true value (input[1]), but got predicted "
                          f"value classes {self._class_num}, true value classes "
                          f"{label_classes}.")

    def _one_hot_pair(self, inputs: tuple) -> tuple[np.ndarray, np.ndarray]:
        """``(predicted one-hot, true one-hot)`` of a batch, after MindSpore's checks."""
        _check_count(self._name, _selected(self, inputs), 2)
        predictions, labels = (self._convert_data(value) for value in _selected(self, inputs))
        if predictions.ndim == labels.ndim and _is_one_hot(labels):
            labels = labels.argmax(axis=1)
        if self._class_num == 0:
            self._class_num = predictions.shape[1]
        elif predictions.shape[1] != self._class_num:
            raise ValueError(f"For '{self._name}.update', class number not match, last input "
                             f"predicted data contain {self._class_num} classes, but current "
                             f"predicted data contain {predictions.shape[1]} classes, please "
                             f"check your predicted value(inputs[0]){self._mismatch_end}")
        if labels.max() + 1 > self._class_num:
            raise self._too_many_classes(labels.max() + 1)
        identity = np.eye(self._class_num)
        return identity[predictions.argmax(axis=1).reshape(-1)], identity[labels.reshape(-1)]


class Fbeta(_ClassCounts):
    """``Fbeta(beta)``: per class, ``(1 + beta**2) * tp / (beta**2 * actual + predicted)``
    over the batches seen; ``eval(average=True)`` averages the classes.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import Fbeta
        >>> metric = Fbeta(2.0)
        >>> metric.update(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]]), np.array([1, 1, 0]))
        >>> print(metric.eval(average=True))
        0.25
    """

    _name = "Fbeta"

    def _too_many_classes(self, label_classes) -> ValueError:
        return ValueError(f"For 'Fbeta.update', predicted value(inputs[0]) and true "
                          f"value(inputs[1]) should contain same classes, but got predicted "
                          f"value contains {self._class_num} classes and true value contains "
                          f"{label_classes} classes.")

    def __init__(self, beta: float):
        super().__init__()
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got "
                             f"{beta}.")
        self.eps, self.beta = _EPS, beta
        self.clear()

    def clear(self) -> None:
        self._true_positives = self._actual_positives = self._positives = 0
        self._class_num = 0

    def update(self, *inputs) -> None:
        predicted, actual = self._one_hot_pair(inputs)
        self._true_positives += (predicted * actual).sum(axis=0)
        self._positives += predicted.sum(axis=0)
        self._actual_positives += actual.sum(axis=0)

    def eval(self, average: bool = False):
        _check_average(type(self).__name__, average)
        if self._class_num == 0:
            raise _nothing_to_eval("Fbeta")
        squared = self.beta ** 2
        scores = (1.0 + squared) * self._true_positives / (
            squared * self._actual_positives + self._positives + self.eps)
        return scores.mean() if average else scores


class F1(Fbeta):
    """``F1()``: :class:`Fbeta` with ``beta=1``.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import F1
        >>> metric = F1()
        >>> metric.update(np.array([[0.2, 0.8], [0.9, 0.1]]), np.array([1, 0]))
        >>> print(metric.eval(average=True))
        1.0
    """

    def __init__(self):
        super().__init__(1.0)


class _PrecisionRecall(_ClassCounts):
    """Precision or recall: true positives over ``_denominator`` positives, per class
    (``'classification'``) or per sample (``'multilabel'``, 0/1 inputs)."""

    def __init__(self, eval_type: str = "classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise TypeError(f"The argument 'eval_type' must be in {{'multilabel', "
                            f"'classification'}}, but got {eval_type}")
        self._type, self.eps = eval_type, _EPS
        self.clear()

    def clear(self) -> None:
        self._class_num = 0
        multilabel = self._type == "multilabel"
        self._true_positives = np.empty(0) if multilabel else 0
        self._counted = np.empty(0) if multilabel else 0
        self._ratio_sum, self._rows = 0, 0

    def _counts(self, predicted: np.ndarray, actual: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _multilabel_pair(self, inputs: tuple) -> tuple[np.ndarray, np.ndarray]:
        _check_count(self._name, _selected(self, inputs), 2)
        predictions, labels = (self._convert_data(value) for value in _selected(self, inputs))
        if predictions.shape != labels.shape:
            raise ValueError(f"In multilabel case, the shape of y_pred (predicted value) should "
                             f"equal to the shape of y (true value), but got y_pred shape: "
                             f"{predictions.shape} and y shape: {labels.shape}.")
        if not (np.equal(predictions ** 2, predictions).all()
                and np.equal(labels ** 2, labels).all()):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and "
                             "y (true value) should be 0 or 1.Please check whether your inputs "
                             "y_pred and y are correct.")
        if self._class_num == 0:
            self._class_num = predictions.shape[1]
        classes = self._class_num
        return (predictions.swapaxes(1, 0).reshape(classes, -1),
                labels.swapaxes(1, 0).reshape(classes, -1))

    def update(self, *inputs) -> None:
        multilabel = self._type == "multilabel"
        predicted, actual = (self._multilabel_pair(inputs) if multilabel
                             else self._one_hot_pair(inputs))
        true_positives = (predicted * actual).sum(axis=0)
        counted = self._counts(predicted, actual)
        if multilabel:
            self._ratio_sum += np.sum(true_positives / (counted + self.eps))
            self._rows += len(counted)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._counted = np.concatenate((self._counted, counted))
        else:
            self._true_positives += true_positives
            self._counted += counted

    def eval(self, average: bool = False):
        if self._class_num == 0:
            raise _no_samples(self._name)
        _check_average(type(self).__name__, average)
        result = self._true_positives / (self._counted + self.eps)
        if average and self._type == "multilabel":
            return np.float64(self._ratio_sum / (self._rows + self.eps))
        return result.mean() if average else result


class Precision(_PrecisionRecall):
    """``Precision(eval_type='classification')``: true positives over predicted positives,
    per class; ``eval(average=True)`` averages them.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import Precision
        >>> metric = Precision()
        >>> metric.update(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]]), np.array([1, 1, 0]))
        >>> print(metric.eval())
        [0.  0.5]
    """

    _name = "Precision"
    _mismatch_end = ""

    def _counts(self, predicted: np.ndarray, actual: np.ndarray) -> np.ndarray:
        return predicted.sum(axis=0)


class Recall(_PrecisionRecall):
    """``Recall(eval_type='classification')``: true positives over actual positives, per
    class; ``eval(average=True)`` averages them.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import Recall
        >>> metric = Recall()
        >>> metric.update(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]]), np.array([1, 1, 0]))
        >>> print(metric.eval())
        [0.  0.5]
    """

    _name = "Recall"

    def _counts(self, predicted: np.ndarray, actual: np.ndarray) -> np.ndarray:
        return actual.sum(axis=0)


class TopKCategoricalAccuracy(Metric):
    """``TopKCategoricalAccuracy(k)``: the fraction of samples whose label is among the
    ``k`` highest predictions.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import TopKCategoricalAccuracy
        >>> metric = TopKCategoricalAccuracy(2)
        >>> metric.update(np.array([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]]), np.array([2, 2]))
        >>> print(metric.eval())
        0.5
    """

    def __init__(self, k: int):
        super().__init__()
        if not isinstance(k, int):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should "
                            f"be int, but got 'k' type: {type(k)}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least "
                             f"1, but got 'k' value: {k}.")
        self.k = k
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._samples_num = 0

    def update(self, *inputs) -> None:
        inputs = _selected(self, inputs)
        if len(inputs) != 2:
            raise ValueError(f"For 'TopKCategoricalAccuracy.update', it needs 2 inputs "
                             f"(predicted value, true value), but got 'inputs' size: "
                             f"{len(inputs)}.")
        predictions, labels = (self._convert_data(value) for value in inputs)
        if predictions.ndim == labels.ndim and _is_one_hot(labels):
            labels = labels.argmax(axis=1)
        top = np.argsort(-predictions, axis=1)[:, :self.k]
        self._correct_num += (top == labels.reshape(-1, 1)).sum()
        self._samples_num += top.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise _no_samples("TopKCategoricalAccuracy")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """``Top1CategoricalAccuracy()``: :class:`TopKCategoricalAccuracy` with ``k=1``.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import Top1CategoricalAccuracy
        >>> metric = Top1CategoricalAccuracy()
        >>> metric.update(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([1, 1]))
        >>> print(metric.eval())
        0.5
    """

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """``Top5CategoricalAccuracy()``: :class:`TopKCategoricalAccuracy` with ``k=5``.

    Example:
        >>> from unigrad.compat.mindspore.train import Top5CategoricalAccuracy
        >>> Top5CategoricalAccuracy().k
        5
    """

    def __init__(self):
        super().__init__(5)


class Perplexity(Metric):
    """``Perplexity(ignore_label=None)``: ``exp(-mean(log p))`` of the probabilities the
    predictions give the labels (positions labelled ``ignore_label`` left out).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import Perplexity
        >>> metric = Perplexity()
        >>> metric.update(np.array([[0.5, 0.5], [0.25, 0.75]]), np.array([0, 0]))
        >>> print(metric.eval())
        2.82842712474619
    """

    def __init__(self, ignore_label: int | None = None):
        super().__init__()
        if ignore_label is not None and (isinstance(ignore_label, bool)
                                         or not isinstance(ignore_label, int)):
            raise TypeError(f"The type of 'ignore_label' should be 'int', but got type "
                            f"'{type(ignore_label).__name__}'.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self) -> None:
        self._sum_metric = 0.0
        self._num_inst = 0

    def update(self, *inputs) -> None:
        inputs = _selected(self, inputs)
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, "
                             f"label), but got {len(inputs)}.")
        predictions, labels = (self._convert_data(value) for value in inputs)
        if labels.size != predictions.size / predictions.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label "
                               f"(input[1]) should have the same shape, but got predicted value "
                               f"shape {predictions.shape}, label shape {labels.shape}.")
        labels = labels.reshape(-1)
        picked = np.squeeze(predictions[np.arange(labels.size)[:, None],
                                        labels.astype(int)[:, None]])
        count = picked.size
        if self.ignore_label is not None:
            ignored = (labels == self.ignore_label).astype(picked.dtype)
            count -= np.sum(ignored)
            picked = picked * (1 - ignored) + ignored
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += count

    def eval(self) -> float:
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of "
                               "samples is 0, please check whether the update method has been "
                               "called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)


class Dice(Metric):
    """``Dice(smooth=1e-5)``: the dice coefficient of each batch, ``2 * <y_pred, y> /
    (|y_pred|**2 + |y|**2 + smooth)``, summed and divided by the number of samples.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import Dice
        >>> metric = Dice()
        >>> metric.update(np.array([[0.0, 1.0]]), np.array([[0.0, 1.0]]))
        >>> print(round(metric.eval(), 4))
        1.0
    """

    def __init__(self, smooth: float = 1e-5):
        super().__init__()
        from .._nn_more_losses import checked_smooth
        self.smooth = checked_smooth(smooth)
        self.clear()

    def clear(self) -> None:
        self._dice_coeff_sum = 0
        self._samples_num = 0

    def update(self, *inputs) -> None:
        inputs = _selected(self, inputs)
        if len(inputs) != 2:
            raise ValueError(f"For 'Dice.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}.")
        predictions, labels = (self._convert_data(value) for value in inputs)
        self._samples_num += labels.shape[0]
        if predictions.shape != labels.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value "
                             f"(input[1]) should have same shape, but got predicted value "
                             f"shape: {predictions.shape}, true value shape: {labels.shape}.")
        predicted, actual = predictions.flatten(), labels.flatten()
        intersection = np.dot(predicted, actual)
        union = np.dot(predicted, predicted) + np.dot(actual, actual)
        self._dice_coeff_sum += 2 * float(intersection) / float(union + self.smooth)

    def eval(self) -> float:
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the "
                               "number of samples is 0, please check whether your "
                               "inputs(predicted value, true value) are empty, or has called "
                               "update method before calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)


class ConfusionMatrix(Metric):
    """``ConfusionMatrix(num_classes, normalize='no_norm', threshold=0.5)``: counts of
    ``(true class, predicted class)`` pairs (rows: true classes); predictions are class
    scores (arg-max over axis 1), class indices, or probabilities compared with
    ``threshold``. ``normalize`` divides by the row sums (``'target'``), column sums
    (``'prediction'``) or the total (``'all'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import ConfusionMatrix
        >>> metric = ConfusionMatrix(2)
        >>> metric.update(np.array([1, 0, 1, 1]), np.array([1, 0, 0, 1]))
        >>> print(metric.eval())
        [[1. 1.]
         [0. 2.]]
    """

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5):
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise TypeError(f"The type of 'num_classes' should be 'int', but got type "
                            f"'{type(num_classes).__name__}'.")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError(f"For 'ConfusionMatrix', the argument 'normalize' must be in "
                             f"['all', 'prediction', 'label', 'no_norm'(None)], but got "
                             f"{normalize}.")
        if not isinstance(threshold, float):
            raise TypeError(f"The type of 'threshold' should be 'float', but got type "
                            f"'{type(threshold).__name__}'.")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        self.clear()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    def update(self, *inputs) -> None:
        inputs = _selected(self, inputs)
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrix.update', it needs 2 inputs (predicted "
                             f"value, true value), but got {len(inputs)}.")
        predictions, labels = (self._convert_data(value) for value in inputs)
        if predictions.ndim not in (labels.ndim, labels.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', predicted value (input[0]) and "
                             f"true value (input[1]) should have same dimensions, or the "
                             f"dimension of predicted value equals the dimension of true value "
                             f"add 1, but got predicted value ndim: {predictions.ndim}, true "
                             f"value ndim: {labels.ndim}.")
        if predictions.ndim == labels.ndim + 1:
            predictions = np.argmax(predictions, axis=1)
        elif predictions.dtype in (np.float16, np.float32, np.float64):
            predictions = (predictions >= self.threshold).astype(int)
        pairs = (labels.reshape(-1) * self.num_classes + predictions.reshape(-1)).astype(int)
        counts = np.bincount(pairs, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        axis = {"target": 1, "prediction": 0, "all": None}[self.normalize]
        with np.errstate(divide="ignore", invalid="ignore"):
            matrix = matrix / matrix.sum(axis=axis, keepdims=axis is not None)
        matrix[np.isnan(matrix)] = 0
        return matrix


def _one_dimensional(values: np.ndarray) -> np.ndarray:
    shape = np.shape(values)
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return np.ravel(values)
    raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional "
                     f"array with the second dimension of 1, but got shape {shape}.")


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False):
    """``auc(x, y, reorder=False)``: the area under the curve through the points
    ``(x, y)`` by the trapezoidal rule; ``x`` must be monotonic unless ``reorder`` sorts
    the points.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import auc
        >>> print(auc(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])))
        0.75
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got "
                        f"{type(x)}, {type(y)}")
    lengths = [len(x) if x.ndim else 0, len(y) if y.ndim else 0]
    if lengths[0] != lengths[1]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{lengths}.")
    x, y = _one_dimensional(x), _one_dimensional(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater "
                         f"than 2, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        steps = np.diff(x)
        if np.any(steps < 0):
            if not np.all(steps <= 0):
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array "
                                 f"must be increasing or decreasing, but got 'x': {x}")
            direction = -1
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    return direction * trapezoid(y, x)


def _roc_inputs(predictions: np.ndarray, labels: np.ndarray, class_num, pos_label) -> tuple:
    """MindSpore's preparation of ROC inputs: binary scores (same rank as the labels, one
    class) or per-class scores (one more axis, ``class_num`` classes), with its reshapes."""
    if predictions.ndim not in (labels.ndim, labels.ndim + 1):
        raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must "
                         f"have same dimensions, or the dimension of predicted value equal the "
                         f"dimension of true value add 1, but got predicted value ndim: "
                         f"{predictions.ndim}, true value ndim: {labels.ndim}.")
    if predictions.ndim == labels.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value "
                             f"(input[1]) have the same shape, the 'class_num' must be 1, but "
                             f"got {class_num}.")
        return predictions.flatten(), labels.flatten(), 1, 1 if pos_label is None else pos_label
    if pos_label is not None:
        raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals "
                         f"the dimension of true value (input[1]) add 1, the 'pos_label' must "
                         f"be None, but got {pos_label}.")
    if class_num != predictions.shape[1]:
        raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from "
                         f"predicted value (input[0]), but got 'class_num' {class_num}, the "
                         f"number of classes from predicted value {predictions.shape[1]}.")
    # MindSpore's reshape (a plain reshape of the row-major scores), kept as it is
    return predictions.reshape(class_num, -1), labels.flatten(), class_num, pos_label


def _binary_curve(scores: np.ndarray, labels: np.ndarray, pos_label) -> tuple:
    """``(false positives, true positives, thresholds)`` at each distinct score,
    highest first."""
    if scores.ndim > labels.ndim:
        scores = scores[:, 0]
    order = np.argsort(-scores)
    scores, labels = scores[order], labels[order]
    distinct = np.where(scores[1:] - scores[:-1])[0]
    ends = np.pad(distinct, (0, 1), constant_values=labels.shape[0] - 1)
    positive = np.array(labels == pos_label).astype(np.int64)
    true_positives = np.cumsum(positive, axis=0)[ends]
    return 1 + ends - true_positives, true_positives, scores[ends]


class ROC(Metric):
    """``ROC(class_num=None, pos_label=None)``: the receiver operating characteristic of the
    last ``update``'s scores: ``eval()`` returns ``(fpr, tpr, thresholds)`` (lists of them,
    one per class, for per-class scores).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.train import ROC
        >>> metric = ROC(pos_label=1)
        >>> metric.update(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
        >>> fpr, tpr, thresholds = metric.eval()
        >>> print(fpr, tpr)
        [0.  0.  0.5 0.5 1. ] [0.  0.5 0.5 1.  1. ]
    """

    def __init__(self, class_num: int | None = None, pos_label: int | None = None):
        super().__init__()
        for name, value in (("class_num", class_num), ("pos_label", pos_label)):
            if value is not None and not isinstance(value, int):
                raise TypeError(f"The type of '{name}' should be 'int', but got type "
                                f"'{type(value).__name__}'.")
        self.class_num, self.pos_label = class_num, pos_label
        self.clear()

    def clear(self) -> None:
        self.y_pred, self.y, self.sample_weights = 0, 0, None
        self._is_update = False

    def update(self, *inputs) -> None:
        inputs = _selected(self, inputs)
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}")
        predictions, labels = (self._convert_data(value) for value in inputs)
        self.y_pred, self.y, self.class_num, self.pos_label = _roc_inputs(
            predictions, labels, self.class_num, self.pos_label)
        self._is_update = True

    def _curve(self, scores: np.ndarray, labels: np.ndarray, class_num: int, pos_label):
        if class_num != 1:
            curves = [self._curve(*_roc_inputs(scores[:, index], labels, 1, index))
                      for index in range(class_num)]
            return tuple(list(items) for items in zip(*curves))
        false_positives, true_positives, thresholds = _binary_curve(scores, labels, pos_label)
        true_positives = np.squeeze(np.hstack([np.zeros(1, true_positives.dtype),
                                               true_positives]))
        false_positives = np.squeeze(np.hstack([np.zeros(1, false_positives.dtype),
                                                false_positives]))
        thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
        if false_positives[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no negative samples in true value, false "
                             "positive value is meaningless.")
        if true_positives[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no positive samples in true value, true "
                             "positive value is meaningless.")
        return (false_positives / false_positives[-1], true_positives / true_positives[-1],
                thresholds)

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._curve(np.squeeze(self.y_pred), np.squeeze(self.y), self.class_num,
                           self.pos_label)
