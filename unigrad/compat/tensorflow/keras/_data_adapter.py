"""Batching of ``fit``/``evaluate``/``predict`` inputs, as Keras 3's data adapters do it.

Inputs are NumPy arrays, tensors, Python lists, nested lists/tuples/dicts of them, or a
``tf.data.Dataset`` of batches. Arrays are cut into ``batch_size`` slices (the last one
smaller), in order or shuffled each epoch; floating-point arrays become float32 tensors.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from .._tensor import EagerTensor
from ..data import Dataset

__all__ = ["unpack_x_y_sample_weight", "map_structure", "flatten", "EpochIterator",
           "train_validation_split", "class_weight_to_sample_weights"]


def map_structure(function: Callable, structure):
    """``function`` applied to every leaf of nested lists, tuples and dicts (None kept; a
    Python list of numbers is one leaf).

    Example:
        >>> map_structure(len, {"a": [[1, 2], "xyz"], "b": None})
        {'a': [2, 3], 'b': None}
    """
    if isinstance(structure, dict):
        return {key: map_structure(function, value) for key, value in structure.items()}
    if isinstance(structure, (list, tuple)) and not _is_array_like_list(structure):
        return type(structure)(map_structure(function, value) for value in structure)
    return None if structure is None else function(structure)


def flatten(structure) -> list:
    """The leaves of nested lists, tuples and dicts, in order (None skipped).

    Example:
        >>> flatten(("x", {"y": "z"}, None))
        ['x', 'z']
    """
    leaves: list = []
    map_structure(leaves.append, structure)
    return leaves


def _is_array_like_list(value) -> bool:
    """A Python list of numbers (or of lists of numbers) is one array, not a structure."""
    return isinstance(value, list) and bool(value) and all(
        isinstance(item, (int, float, bool, np.number)) or _is_array_like_list(item)
        for item in value)


def unpack_x_y_sample_weight(data) -> tuple:
    """A batch as ``(x, y, sample_weight)``: tuples of one to three items are unpacked,
    anything else is ``x`` alone.

    Example:
        >>> unpack_x_y_sample_weight(("x", "y")), unpack_x_y_sample_weight("x")
        (('x', 'y', None), ('x', None, None))
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`, found: {data}")


def _to_numpy(value) -> np.ndarray:
    if isinstance(value, _UgTensor):
        return np.asarray(value.numpy())
    array = np.asarray(value)
    if array.dtype == object:
        raise ValueError(f"Unrecognized data type: x={value!r} (of type {type(value)})")
    return array


def _to_tensor(array: np.ndarray):
    """A batch slice as a TensorFlow tensor; floating point becomes float32 (Keras' floatx)."""
    if array.dtype.kind == "f" and array.dtype != np.float32:
        array = array.astype(np.float32)
    return EagerTensor(np.ascontiguousarray(array))


def class_weight_to_sample_weights(y, class_weight: dict) -> np.ndarray:
    """Per-sample float32 weights ``class_weight[label]`` (1 for unlisted classes); one-hot
    labels are read by their arg-max.

    Example:
        >>> class_weight_to_sample_weights([0, 2, 1], {0: 0.5, 2: 3.0})
        array([0.5, 3. , 1. ], dtype=float32)
    """
    labels = _to_numpy(y)
    if labels.ndim > 1:
        labels = np.argmax(labels, axis=-1) if labels.shape[-1] != 1 else labels[..., 0]
    labels = np.round(labels).astype("int32")
    return np.array([class_weight.get(int(label), 1.0) for label in labels], np.float32)


def train_validation_split(arrays, validation_split: float) -> tuple:
    """``(train, validation)``: the last ``validation_split`` of every array for validation.

    Raises:
        ValueError: For datasets, or when a part would be empty.

    Example:
        >>> import numpy as np
        >>> train, validation = train_validation_split((np.arange(5), None), 0.4)
        >>> train, validation
        ((array([0, 1, 2]), None), (array([3, 4]), None))
    """
    leaves = flatten(arrays)
    if any(isinstance(leaf, Dataset) or callable(getattr(leaf, "__next__", None))
           for leaf in leaves):
        raise ValueError("Argument `validation_split` is only supported for tensors or NumPy "
                         f"arrays.Found incompatible type in the input: "
                         f"{[type(leaf) for leaf in leaves]}")
    if not leaves:
        return arrays, arrays
    arrays = map_structure(_to_numpy, arrays)
    size = int(flatten(arrays)[0].shape[0])
    split_at = int(math.floor(size * (1.0 - validation_split)))
    if split_at in (0, size):
        raise ValueError(f"Training data contains {size} samples, which is not sufficient to "
                         "split it into a validation and training set as specified by "
                         f"`validation_split={validation_split}`. Either provide more data, "
                         "or a different value for the `validation_split` argument.")
    return (map_structure(lambda array: array[:split_at], arrays),
            map_structure(lambda array: array[split_at:], arrays))


class EpochIterator:
    """The batches of each epoch: ``for step, batch in iterator``, once per epoch.

    ``num_batches`` is the number of batches per epoch (``steps_per_epoch`` when given, None
    while unknown). With ``steps_per_epoch``, an epoch continues where the previous one
    stopped, and ends early at the end of the data (which then starts over), as in Keras.

    Raises:
        ValueError: For inconsistent sample counts, or ``y``/``sample_weight`` given with a
            dataset.

    Example:
        >>> import numpy as np
        >>> iterator = EpochIterator(np.arange(5.0), np.arange(5), batch_size=2)
        >>> iterator.num_batches, [batch[1].numpy().tolist() for _, batch in iterator]
        (3, [[0, 1], [2, 3], [4]])
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size: int | None = None,
                 steps_per_epoch: int | None = None, shuffle=False, class_weight=None):
        self.steps_per_epoch = steps_per_epoch
        self._current: Iterator | None = None
        self._steps_seen = 0
        if isinstance(x, Dataset):
            self._init_dataset(x, y, sample_weight, class_weight)
            return
        self._dataset = None
        if class_weight is not None and y is not None:
            if sample_weight is not None:
                raise ValueError("Arguments `sample_weight` and `class_weight` cannot be "
                                 f"specified at the same time. Received: sample_weight="
                                 f"{sample_weight}, class_weight={class_weight}")
            sample_weight = class_weight_to_sample_weights(y, class_weight)
        data = (x,) if y is None and sample_weight is None else (
            (x, y) if sample_weight is None else (x, y, sample_weight))
        self._arrays = map_structure(_to_numpy, data)
        sizes = {int(leaf.shape[0]) for leaf in flatten(self._arrays) if leaf.ndim}
        if len(sizes) > 1:
            raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the "
                             f"same number of samples. Sizes: {sorted(sizes)}")
        self._size = sizes.pop() if sizes else 1
        self.batch_size = batch_size or 32
        self._shuffle = shuffle
        self._num_batches: int | None = math.ceil(self._size / self.batch_size)

    def _init_dataset(self, dataset: Dataset, y, sample_weight, class_weight) -> None:
        if y is not None:
            raise ValueError("When providing `x` as a tf.data.Dataset, `y` should not be "
                             "passed. Instead, the targets should be included as part of the "
                             "tf.data.Dataset.")
        if sample_weight is not None:
            raise ValueError("When providing `x` as a tf.data.Dataset, `sample_weight` should "
                             "not be passed. Instead, the sample weights should be included "
                             "as part of the tf.data.Dataset.")
        self._dataset = dataset
        self._class_weight = class_weight
        cardinality = int(dataset.cardinality())
        self._num_batches = cardinality if cardinality >= 0 else None

    @property
    def num_batches(self) -> int | None:
        """Batches per epoch: ``steps_per_epoch``, else the data's, None if unknown."""
        return self.steps_per_epoch or self._num_batches

    def __iter__(self) -> Iterator:
        """``(step, batch)`` pairs of one epoch; a batch is a tuple of tensor structures."""
        if self._current is None or self.steps_per_epoch is None:
            self._current, self._steps_seen = self._fresh(), 0
        steps = self.num_batches
        step = 0
        while steps is None or step < steps:
            if self._num_batches and self._steps_seen >= self._num_batches:
                if self.steps_per_epoch:
                    _warn_out_of_data()
                break
            try:
                batch = next(self._current)
            except StopIteration:
                if self._num_batches is None:
                    self._num_batches = self._steps_seen
                _warn_out_of_data()
                self._current = None
                return
            self._steps_seen += 1
            yield step, batch
            step += 1
        if self._num_batches and self._steps_seen >= self._num_batches:
            self._current, self._steps_seen = self._fresh(), 0

    def _fresh(self) -> Iterator:
        """A new pass over the data (a new order when shuffling)."""
        if self._dataset is not None:
            return (self._with_class_weight(element) for element in self._dataset)
        return self._array_batches(self._order())

    def _array_batches(self, order: np.ndarray) -> Iterator:
        for start in range(0, self._size, self.batch_size):
            rows = order[start:start + self.batch_size]
            yield map_structure(lambda array, rows=rows: _to_tensor(array[rows]), self._arrays)

    def _order(self) -> np.ndarray:
        if not self._shuffle:
            return np.arange(self._size)
        if self._shuffle == "batch":  # shuffle whole batches, keeping their contents
            blocks = [np.arange(start, min(start + self.batch_size, self._size))
                      for start in range(0, self._size, self.batch_size)]
            return np.concatenate([blocks[index] for index in
                                   np.asarray(ug.randperm(len(blocks)).numpy())])
        return np.asarray(ug.randperm(self._size).numpy())

    def _with_class_weight(self, element):
        if self._class_weight is None:
            return element
        x, y, _ = unpack_x_y_sample_weight(element)
        return x, y, _to_tensor(class_weight_to_sample_weights(y, self._class_weight))


def _warn_out_of_data() -> None:
    warnings.warn("Your input ran out of data; interrupting training. Make sure that your "
                  "dataset or generator can generate at least `steps_per_epoch * epochs` "
                  "batches. You may need to use the `.repeat()` function when building your "
                  "dataset.", stacklevel=4)


